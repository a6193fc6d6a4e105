import { describe, expect, it } from 'vitest';
import { proxiedLinks, proxiedReference } from './relayed-references.js';

const upstream = new URL('https://staging.example/api/v2');
const answered = new URL('https://staging.example/api/v2/pets');
const rebase = (reference: string) => proxiedReference(reference, answered, upstream, '/v1');

describe('proxiedReference', () => {
  it('rewrites a reference to a resource of the API, absolute or relative, to the proxy’s base path', () => {
    expect(rebase('/api/v2/pets/3')).toBe('/v1/pets/3');
    expect(rebase('https://staging.example/api/v2/pets/3?x=1#y')).toBe('/v1/pets/3?x=1#y');
    expect(rebase('pets/3')).toBe('/v1/pets/3');
    expect(rebase('/api/v2')).toBe('/v1');
  });

  it('drops one that leaves the API: another origin, scheme-relative, outside the base path, not a URI', () => {
    for (const elsewhere of [
      'http://evil.example/phish',
      '//evil.example/x',
      'https://staging.example:8443/api/v2/pets',
      '/api/v20/pets',
      '/other',
      'javascript:alert(1)',
      'http://[::1',
    ])
      expect(rebase(elsewhere), elsewhere).toBeUndefined();
  });
});

describe('proxiedLinks', () => {
  it('keeps the links into the API, rewritten, with their parameters, and drops the rest', () => {
    expect(proxiedLinks('</api/v2/pets/9>; rel="successor-version", <https://evil.example/x.js>; rel=preload; as=script', rebase)).toBe(
      '</v1/pets/9>; rel="successor-version"',
    );
    expect(proxiedLinks('<https://evil.example/x.js>; rel=preload; as=script', rebase)).toBeUndefined();
    expect(proxiedLinks('</api/v2/pets>; title="a, b"', rebase)).toBe('</v1/pets>; title="a, b"');
  });
});
