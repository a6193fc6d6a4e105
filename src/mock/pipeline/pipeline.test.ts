import { describe, expect, it } from 'vitest';
import { createMockApi } from '../create-mock-api.js';

const AUTH = { authorization: 'Bearer petstore-dev-key' };

async function call(target: string, headers: Record<string, string>): Promise<Response> {
  return createMockApi().fetch(new Request(`http://mock.test${target}`, { headers: { ...AUTH, ...headers } }));
}

describe('Preference-Applied', () => {
  it('names a code= or auth=expired only when the answer is the forced one, not when the inputs refused the request first', async () => {
    for (const [target, prefer] of [
      ['/v1/pets/abc', 'code=404'],
      ['/v1/pets?limit=0', 'code=503'],
      ['/v1/pets?limit=0', 'auth=expired'],
    ] as const) {
      const response = await call(target, { prefer });
      expect(response.status, `${target} with Prefer: ${prefer}`).toBe(400);
      expect(response.headers.get('preference-applied'), `${target} with Prefer: ${prefer}`).toBeNull();
    }
  });

  it('still names the delay it waited when the inputs refused the request, and the forced code when it was answered', async () => {
    expect((await call('/v1/pets?limit=0', { prefer: 'code=503, delay=1' })).headers.get('preference-applied')).toBe('delay=1');
    const forced = await call('/v1/pets/1', { prefer: 'code=404, delay=1' });
    expect(forced.status).toBe(404);
    expect(forced.headers.get('preference-applied')).toBe('code=404, delay=1');
  });
});
