import { describe, expect, it } from 'vitest';
import { parseUpstream, upstreamUrl } from './upstream-url.js';

const staging = parseUpstream('https://staging.example.com/api/v1');

/** Where a request-target goes at staging, or `rejected`. */
function destination(target: string): string {
  const there = upstreamUrl(staging, '/v1', target);
  return 'url' in there ? there.url.href : 'rejected';
}

describe('upstreamUrl', () => {
  it('puts the path under /v1 after the base URL, query and all', () => {
    expect(destination('/v1/pets?limit=2')).toBe('https://staging.example.com/api/v1/pets?limit=2');
    expect(destination('/v1')).toBe('https://staging.example.com/api/v1');
    expect(destination('/v1/pets/42')).toBe('https://staging.example.com/api/v1/pets/42');
  });

  it('keeps dots that are no segment of their own, and dot segments in the query', () => {
    expect(destination('/v1/pets/a..b')).toBe('https://staging.example.com/api/v1/pets/a..b');
    expect(destination('/v1/pets/...')).toBe('https://staging.example.com/api/v1/pets/...');
    expect(destination('/v1/pets?status=../x')).toBe('https://staging.example.com/api/v1/pets?status=../x');
  });

  it('rejects every dot segment, plain or percent-encoded in any case, once or twice', () => {
    for (const target of [
      '/v1/../internal',
      '/v1/..',
      '/v1/.',
      '/v1/pets/./1',
      '/v1/%2e%2e/internal',
      '/v1/%2E%2e/internal',
      '/v1/.%2e/internal',
      '/v1/%2e./internal',
      '/v1/%2e/pets',
      '/v1/%252e%252e/internal',
      '/v1/%25252e%25252e/internal',
    ])
      expect(destination(target), target).toBe('rejected');
  });

  it('rejects a slash or backslash hidden in a segment, and a backslash that splits one', () => {
    for (const target of ['/v1/..%2finternal', '/v1/pets%2F..%2F..%2Fadmin', '/v1/..%5cinternal', '/v1/..\\..\\internal', '/v1/%255c'])
      expect(destination(target), target).toBe('rejected');
  });

  it('never leaves the base URL’s origin', () => {
    const root = parseUpstream('https://staging.example.com');
    const there = upstreamUrl(root, '/v1', '/v1@other.example/pets');
    expect('rejection' in there).toBe(true);
  });
});
