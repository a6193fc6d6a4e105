import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MockRequest } from '../core/messages.js';
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

describe("the journal's latency", () => {
  /** A request as a host that stamped its arrival gives it. */
  const stamped = (started: number): MockRequest => ({
    method: 'GET',
    target: '/v1/pets/1',
    started,
    header: (name) => (name === 'authorization' ? AUTH.authorization : undefined),
    text: async () => '',
  });

  afterEach(() => vi.restoreAllMocks());

  it('times a response made at once, from where the host stamped the request to the response', async () => {
    const mock = createMockApi();
    vi.spyOn(performance, 'now').mockReturnValue(109.8);
    mock.respond(stamped(100));
    const [entry] = await mock.requests();
    expect(entry?.latencyMs).toBe(9.8);
  });

  it('times from its own arrival when the host stamped nothing (MSW, fetch)', async () => {
    const mock = createMockApi();
    vi.spyOn(performance, 'now').mockReturnValueOnce(50).mockReturnValue(52.5);
    await mock.fetch(new Request('http://mock.test/v1/pets/1', { headers: AUTH }));
    const [entry] = await mock.requests();
    expect(entry?.latencyMs).toBe(2.5);
  });
});
