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
});
