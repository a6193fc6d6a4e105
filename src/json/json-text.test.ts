import { describe, expect, it } from 'vitest';
import { outlineJsonText } from './json-text.js';

describe('outlineJsonText', () => {
  it('measures nesting outside strings only, escaped quotes included', () => {
    expect(outlineJsonText(`{"a":"${'['.repeat(500)}"}`).depth).toBe(1);
    expect(outlineJsonText('{"a":"\\"[[[["}').depth).toBe(1);
    expect(outlineJsonText('[[[1]], {"b": [2]}]').depth).toBe(3);
  });

  it('counts the members objects are written with, a key twice counted twice, never a string value followed by a colon inside a string', () => {
    expect(outlineJsonText('{"a": 1, "a" : 2, "b": {"c": "d:"}}').members).toBe(4);
    expect(outlineJsonText('["a", "b:", {"\\"c": 1}]').members).toBe(1);
  });

  it('finds the first number longer than the limit, where it starts, never digits inside a string', () => {
    expect(outlineJsonText(`[{"id":${'9'.repeat(101)}}]`).overlongNumber).toEqual({ at: 7, length: 101 });
    expect(outlineJsonText(`{"n":-1.5e+${'0'.repeat(95)}}`).overlongNumber).toEqual({ at: 5, length: 101 });
    expect(outlineJsonText(`{"id":${'9'.repeat(100)}}`).overlongNumber).toBeUndefined();
    expect(outlineJsonText(`{"name":"${'9'.repeat(1000)}","q":"\\"${'1'.repeat(1000)}"}`).overlongNumber).toBeUndefined();
  });

  it('says whether a number may be rounded by a double (a fraction, an exponent, 16 digits), never for a string, true or false', () => {
    for (const text of ['{"a":1.5}', '[2e3]', '[-1E-2]', '{"id":1234567890123456}', '[0.0]']) expect(outlineJsonText(text).inexactNumber, text).toBe(true);
    for (const text of ['{"id":123456789012345,"ok":true,"no":false}', '{"s":"1.5e3 1234567890123456"}', '[-7, null]'])
      expect(outlineJsonText(text).inexactNumber, text).toBe(false);
  });
});
