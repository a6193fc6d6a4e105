import { describe, expect, it } from 'vitest';
import { errorResponse, jsonResponse, prepared } from '../../src/mock/core/messages.js';
import { headerList } from '../../src/mock/hosts/node-server.js';

describe('headerList', () => {
  it('writes a prepared answer from the list its headers carry, made once: nothing is derived per answer', () => {
    const answer = prepared(errorResponse('unauthorized', 'Missing credential.', { 'www-authenticate': 'Bearer' }));
    expect(headerList(answer, false)).toBe(answer.prepared.list);
    expect(headerList(answer, false)).toEqual(['content-length', 0, ...Object.entries(answer.headers).flat()]);
    const page = jsonResponse(200, '[]');
    expect(headerList(page, false)).toBe(headerList(jsonResponse(200, '[{"id":1}]'), false));
  });

  it('makes the list of headers made for one answer, and of an answer whose headers were changed after they were prepared', () => {
    const answer = prepared(errorResponse('not_found', 'x'));
    const changed = { ...answer, headers: { ...answer.headers, 'preference-applied': 'code=404' } };
    expect(headerList(changed, false)).toContain('preference-applied');
    expect(headerList(changed, false)).not.toBe(answer.prepared.list);
    expect(headerList(jsonResponse(201, '{}', { location: '/v1/pets/51' }), false)).toContain('location');
  });

  it('asks to close the connection without touching the prepared list', () => {
    const answer = prepared(errorResponse('not_found', 'x'));
    expect(headerList(answer, true).slice(-2)).toEqual(['connection', 'close']);
    expect(answer.prepared.list).not.toContain('connection');
  });
});
