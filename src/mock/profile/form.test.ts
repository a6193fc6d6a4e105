import { describe, expect, it } from 'vitest';
import { UNKNOWN_PROFILE } from '../../profile/profile.js';
import { errorResponse, JSON_RESPONSE_HEADERS, jsonResponse, preparedResponse } from '../core/messages.js';
import { profileForm } from './form.js';

describe('profileForm', () => {
  it('is no step at all for a profile that keeps the mock’s form', () => {
    expect(profileForm(UNKNOWN_PROFILE)).toBeUndefined();
    expect(profileForm({ ...UNKNOWN_PROFILE, charset: 'none', errorCodes: { not_found: 'not_found' } })).toBeUndefined();
  });

  it('renames Error codes and leaves the rest of the body as it was', () => {
    const form = profileForm({ ...UNKNOWN_PROFILE, errorCodes: { not_found: 'E404' } });
    expect(JSON.parse(form?.(errorResponse('not_found', 'No pet has id 9.')).body ?? '')).toEqual({ code: 'E404', message: 'No pet has id 9.', status: 404 });
    expect(form?.(errorResponse('bad_request', 'x')).body).toContain('"code":"bad_request"');
    expect(form?.(jsonResponse(200, '{"code":"not_found"}')).body).toBe('{"code":"not_found"}');
  });

  it('adds the charset to JSON answers, and gives shared headers one twin that is kept', () => {
    const form = profileForm({ ...UNKNOWN_PROFILE, charset: 'utf-8' });
    const first = form?.(preparedResponse(200, JSON_RESPONSE_HEADERS, '[]'));
    const second = form?.(preparedResponse(200, JSON_RESPONSE_HEADERS, '[]'));
    expect(first?.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first?.prepared?.record).toBe(first?.headers);
    expect(first?.prepared).toBe(second?.prepared);
  });
});
