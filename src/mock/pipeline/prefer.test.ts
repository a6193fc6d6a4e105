import { describe, expect, it } from 'vitest';
import { appliedPreferences, forcedResponse, parsePreferences } from './prefer.js';

describe('parsePreferences', () => {
  it('is undefined when a request prefers nothing the mock knows', () => {
    expect(parsePreferences(undefined, 'limit=5', 'listPets')).toBeUndefined();
    expect(parsePreferences('return=minimal, respond-async', '', 'listPets')).toBeUndefined();
    expect(parsePreferences(undefined, '__example=cat', 'listPets')).toBeUndefined();
  });

  it('reads code, delay and auth from the header and the query, names in any case, the first of each counting', () => {
    expect(parsePreferences('Code=404; DELAY = "20"', '', 'getPet')).toEqual({ code: 404, delay: 20 });
    expect(parsePreferences('code=404', '__code=500&__delay=5&__auth=EXPIRED', 'getPet')).toEqual({ code: 404, delay: 5, auth: 'expired' });
    expect(parsePreferences('code=404, code=410', '', 'getPet')).toEqual({ code: 404 });
  });

  it('reads a network fault and how slowly to trickle, and rejects a fault it does not know', () => {
    expect(parsePreferences('fault=RESET', '', 'listPets')).toEqual({ fault: 'reset' });
    expect(parsePreferences(undefined, '__fault=slow&__trickle=500', 'getPet')).toEqual({ fault: 'slow', trickle: 500 });
    const unknown = parsePreferences('fault=explode', '', 'listPets');
    expect(unknown && 'error' in unknown && JSON.parse(unknown.error.body).message).toMatch(
      /^Prefer: fault=…: the network faults are reset, close, garbage, truncate, slow/,
    );
    const tooSlow = parsePreferences('fault=slow, trickle=60001', '', 'listPets');
    expect(tooSlow && 'error' in tooSlow && JSON.parse(tooSlow.error.body).message).toBe(
      'Prefer: trickle=…: trickle must be a whole number of milliseconds from 0 to 60000.',
    );
  });

  it('answers a 400 naming the preference as the request said it', () => {
    const error = parsePreferences(undefined, '__code=418', 'getPet');
    expect(error && 'error' in error && JSON.parse(error.error.body)).toMatchObject({
      status: 400,
      message: expect.stringMatching(/^__code=…: getPet does not document 418/),
    });
  });
});

describe('appliedPreferences', () => {
  it('lists what was applied: auth=expired wins over code=', () => {
    expect(appliedPreferences({ code: 404, delay: 10 })).toBe('code=404, delay=10');
    expect(appliedPreferences({ code: 404, auth: 'expired' })).toBe('auth=expired');
    expect(appliedPreferences({ delay: 0 })).toBe('delay=0');
    expect(appliedPreferences({ fault: 'slow', trickle: 300 })).toBe('fault=slow, trickle=300');
    expect(appliedPreferences({ fault: 'truncate', trickle: 300 })).toBe('fault=truncate');
  });
});

describe('forcedResponse', () => {
  it('forces nothing for a delay alone, or for a fault that breaks only the response', () => {
    expect(forcedResponse({ delay: 10 }, 'listPets')).toBeUndefined();
    expect(forcedResponse({ fault: 'slow' }, 'listPets')).toBeUndefined();
    expect(forcedResponse({ fault: 'truncate', code: 404 }, 'getPet')?.status).toBe(404);
  });

  it('stands a 503 for a response the connection breaks before, in place of any forced code', () => {
    const broken = forcedResponse({ fault: 'reset', code: 404 }, 'getPet');
    expect(broken?.status).toBe(503);
    expect(JSON.parse(broken?.body ?? '{}').message).toMatch(/asked for a network fault \(fault=reset\)/);
  });

  it('gives each forced status the code the catalogue names for it', () => {
    const codes = Object.fromEntries(
      [400, 401, 404, 410, 413, 415, 429, 500, 503].map((status) => [status, JSON.parse(forcedResponse({ code: status }, 'getPet')?.body ?? '{}').code]),
    );
    expect(codes).toEqual({
      400: 'bad_request',
      401: 'unauthorized',
      404: 'not_found',
      410: 'gone',
      413: 'payload_too_large',
      415: 'unsupported_media_type',
      429: 'too_many_requests',
      500: 'internal_error',
      503: 'service_unavailable',
    });
  });

  it('tells a client when to retry a forced 429 or 503, as the spec declares (Retry-After), and no other status', () => {
    expect(forcedResponse({ code: 429 }, 'listPets')?.headers['retry-after']).toBe('1');
    expect(forcedResponse({ code: 503 }, 'getPet')?.headers['retry-after']).toBe('1');
    expect(forcedResponse({ code: 500 }, 'listPets')?.headers['retry-after']).toBeUndefined();
  });
});
