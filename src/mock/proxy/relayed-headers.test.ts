import { describe, expect, it } from 'vitest';
import { MAX_RELAYED_FIELD_CHARS, relayedHeaders } from './relayed-headers.js';

/** What the proxy relays of `fields` for an answer of `operationId` with `status`, less what it adds to every answer. */
function relayed(fields: Record<string, string>, operationId: 'getPet' | 'createPet' | 'listPets' | undefined, status: number): Record<string, string> {
  const all = relayedHeaders(
    new Headers(fields),
    { operationId, status },
    (value) => value,
    (reference) => (reference.startsWith('/v1/') ? reference : undefined),
  );
  return Object.fromEntries(
    Object.entries(all).filter(([name]) => !name.startsWith('access-control-') && name !== 'x-content-type-options' && name !== 'content-security-policy'),
  );
}

/** What the red team's deployment sent on every answer (issue 34): each acts on the origin that serves it. */
const ACTING = {
  'report-to': '{"group":"e","max_age":9999,"endpoints":[{"url":"http://evil.example/r"}]}',
  nel: '{"report_to":"e","max_age":9999}',
  'reporting-endpoints': 'e="http://evil.example/r"',
  'content-security-policy-report-only': 'default-src none; report-uri http://evil.example/csp',
  'speculation-rules': '"http://evil.example/rules.json"',
  sourcemap: 'http://evil.example/x.map',
  'x-sourcemap': 'http://evil.example/y.map',
  'content-disposition': 'attachment; filename="update.exe"',
  'permissions-policy': 'camera=*',
  refresh: '0;url=https://evil.example',
  'set-cookie': 'a=b',
  'clear-site-data': '"*"',
  'alt-svc': 'h3=":443"',
  'cache-control': 'public, max-age=31536000, immutable',
  expires: 'Thu, 01 Dec 2094 16:00:00 GMT',
  'last-modified': 'Thu, 01 Dec 1994 16:00:00 GMT',
  'origin-agent-cluster': '?0',
  'timing-allow-origin': '*',
  'accept-ch': 'Sec-CH-UA-Full-Version',
  'cross-origin-resource-policy': 'cross-origin',
  'service-worker-allowed': '/',
  'x-request-id': 'kept-7',
  'proxy-authenticate': 'Basic',
  'keep-alive': 'timeout=600',
};

describe('relayedHeaders', () => {
  it('relays what the spec documents for the answer and what HTTP needs to read it, and nothing else', () => {
    expect(relayed({ ...ACTING, 'content-type': 'application/json', 'www-authenticate': 'Basic realm="SSO"' }, 'listPets', 200)).toEqual({
      'content-type': 'application/json',
    });
    expect(relayed({ ...ACTING, 'content-type': 'text/html', date: 'Thu, 01 Dec 2025 16:00:00 GMT', vary: 'Accept', etag: '"v1"' }, undefined, 404)).toEqual({
      'content-type': 'text/html',
      date: 'Thu, 01 Dec 2025 16:00:00 GMT',
      vary: 'Accept',
      etag: '"v1"',
    });
    expect(relayed({ location: '/v1/pets/3', 'retry-after': '1' }, 'createPet', 201)).toEqual({ location: '/v1/pets/3', 'retry-after': '1' });
    // A Location the spec documents for a 201 only.
    expect(relayed({ location: '/v1/pets/3' }, 'listPets', 200)).toEqual({});
  });

  it('relays a documented header only when it keeps to its schema', () => {
    const notice = { deprecation: '@1748736000', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', link: '</v1/pets>; rel="successor-version"' };
    expect(relayed(notice, 'getPet', 200)).toEqual(notice);
    expect(relayed({ deprecation: 'yes-please', sunset: 'soon' }, 'getPet', 200)).toEqual({});
  });

  it('relays WWW-Authenticate only as the challenge of the operation’s scheme: never Basic, which opens a login dialog', () => {
    expect(relayed({ 'www-authenticate': 'Basic realm="Enter your SSO password"' }, 'listPets', 401)).toEqual({});
    expect(relayed({ 'www-authenticate': 'Bearer realm="pets", error="invalid_token", Basic realm="x"' }, 'listPets', 401)).toEqual({
      'www-authenticate': 'Bearer',
    });
    expect(relayed({ 'www-authenticate': 'bearer' }, 'getPet', 401)).toEqual({ 'www-authenticate': 'Bearer' });
  });

  it(`relays no field longer than ${MAX_RELAYED_FIELD_CHARS} characters`, () => {
    expect(relayed({ 'content-type': `application/json; x=${'a'.repeat(MAX_RELAYED_FIELD_CHARS)}` }, 'listPets', 200)).toEqual({});
    expect(relayed({ 'content-type': 'application/json' }, 'listPets', 200)).toEqual({ 'content-type': 'application/json' });
  });
});
