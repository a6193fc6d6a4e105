import { validateHeaderValue } from 'node:http';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { headerValue, safeHeaderList, safeHeaderRecord, vouchedHeaderList, withHeader } from './header-value.js';

/** What RFC 9110 §5.5 lets a sender write in a field value, without obs-text (which senders must not generate). */
const FIELD_VALUE = /^(?:[\x21-\x7e](?:[\t\x20-\x7e]*[\x21-\x7e])?)?$/;

describe('headerValue', () => {
  it('makes any text a value HTTP, Node and fetch accept, and leaves visible ASCII as it is', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => {
        const value = headerValue(text);
        expect(value).toMatch(FIELD_VALUE);
        expect(() => validateHeaderValue('x-any', value)).not.toThrow();
        expect(() => new Headers({ 'x-any': value })).not.toThrow();
        // fetch keeps it as it is: nothing to trim or to refuse.
        expect(new Headers({ 'x-any': value }).get('x-any')).toBe(value);
        if (FIELD_VALUE.test(text)) expect(value).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it("percent-encodes an excerpt's ellipsis, control characters and half a surrogate pair", () => {
    expect(headerValue('text/x-a… (300 characters)')).toBe('text/x-a%E2%80%A6 (300 characters)');
    expect(headerValue('a\r\nSet-Cookie: b\u0000')).toBe('a%0D%0ASet-Cookie: b%00');
    expect(headerValue(' \ud800x ')).toBe('%EF%BF%BDx');
  });

  it('returns lists and records whose values were all safe as they are, and copies only the others', () => {
    const list = ['content-length', 0, 'content-type', 'application/json'];
    expect(safeHeaderList(list)).toBe(list);
    expect(safeHeaderList(['x-a', 'é'])).toEqual(['x-a', '%C3%A9']);
    const record = { 'content-type': 'application/json' };
    expect(safeHeaderRecord(record)).toBe(record);
    expect(safeHeaderRecord({ 'x-a': '…' })).toEqual({ 'x-a': '%E2%80%A6' });
  });

  it('makes a list made once for many answers safe as it is made, and each header added to it, so that a host need not test them again', () => {
    const vouched = vouchedHeaderList(['content-length', 0, 'x-a', 'é', 'content-type', 'application/json']);
    expect(vouched).toEqual(['content-length', 0, 'x-a', '%C3%A9', 'content-type', 'application/json']);
    expect(safeHeaderList(vouched)).toBe(vouched);
    const longer = withHeader(vouched, 'location', '/v1/pets/…');
    expect(longer).toEqual([...vouched, 'location', '/v1/pets/%E2%80%A6']);
    expect(safeHeaderList(longer)).toBe(longer);
    // A list no one vouched for is tested on every write, the header added to it too.
    const plain = ['x-b', 'text'];
    expect(withHeader(plain, 'x-c', 'ü')).toEqual(['x-b', 'text', 'x-c', '%C3%BC']);
    expect(safeHeaderList([...plain, 'x-c', 'ü'])).toEqual(['x-b', 'text', 'x-c', '%C3%BC']);
  });
});
