import fc from 'fast-check';
import { parse as parseLossless, stringify as stringifyLossless } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { parseJson, parseJsonFast, stringifyJson, validationView } from './lossless.js';

describe('lossless JSON', () => {
  it('keeps integers beyond 2^53 exact as bigint and everything else as numbers', () => {
    expect(parseJson('{"a":9007199254740993,"b":1.5,"c":-12,"d":1e2}')).toEqual({ a: 9007199254740993n, b: 1.5, c: -12, d: 100 });
  });

  it('round-trips exact digits', () => {
    const text = '{"id":1,"categoryId":123456789012345678901234567890}';
    expect(stringifyJson(parseJson(text))).toBe(text);
  });

  it('reads an integer of more than 1,000 digits as the infinity of its sign, in bounded time', () => {
    const digits = '9'.repeat(1_000_000);
    expect(parseJson(`[${'9'.repeat(1000)},${digits},-${digits}]`)).toEqual([BigInt('9'.repeat(1000)), Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]);
  });

  it('parses fast as parseJson does, numbers exact, a name given twice keeping its last value', () => {
    const text = '{"a":9007199254740993,"b":1.5,"c":-12,"d":1e2,"e":5.0,"f":[9007199254740993.0,4.9999999999999999],"g":"x","__proto__":{"p":1}}';
    expect(parseJsonFast(text)).toEqual(parseJson(text));
    expect(Object.getPrototypeOf(parseJsonFast(text))).toBe(Object.prototype);
    expect(parseJsonFast('{"a":1,"a":2}')).toEqual({ a: 2 });
    expect(() => parseJsonFast('{"a":')).toThrow(SyntaxError);
    expect(() => parseJsonFast(`${'['.repeat(129)}${']'.repeat(129)}`)).toThrow(SyntaxError);
  });

  it('throws SyntaxError on malformed input', () => {
    expect(() => parseJson('{"a":')).toThrow(SyntaxError);
  });

  it('keeps __proto__ an own key, never a prototype', () => {
    const value = parseJson('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
  });

  it('shows ajv safe stand-ins for bigints and infinities beyond int64, without copying otherwise', () => {
    const plain = { a: [1, 'x'] };
    expect(validationView(plain)).toBe(plain);
    expect(validationView({ a: [2n ** 62n, -(2n ** 70n)] })).toEqual({ a: [Number.MAX_SAFE_INTEGER, Number.NEGATIVE_INFINITY] });
  });
});

describe('nesting', () => {
  it('refuses JSON nested deeper than MAX_JSON_DEPTH at once, with a SyntaxError', () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    // CPU time, which a busy machine does not stretch as it does the wall clock.
    const started = process.cpuUsage();
    expect(() => parseJson(deep)).toThrow(/nest deeper than 128 levels/);
    const { user, system } = process.cpuUsage(started);
    expect((user + system) / 1000).toBeLessThan(1_000);
  });

  it('reads nesting up to the limit', () => {
    expect(parseJson(`${'['.repeat(128)}${']'.repeat(128)}`)).toBeDefined();
  });
});

describe('exact numbers', () => {
  const read = (text: string) => (parseJson(`{"n":${text}}`) as { n: unknown }).n;

  it('keeps integers written with a zero fraction or an exponent exactly, beyond 2^53 too', () => {
    expect(read('9007199254740993.0')).toBe(9007199254740993n);
    expect(read('5.0')).toBe(5);
    expect(read('1e2')).toBe(100);
    expect(read('1.5e1')).toBe(15);
    expect(read('-9007199254740993000e-3')).toBe(-9007199254740993n);
    expect(read('0.000e5')).toBe(0);
    expect(read('9223372036854775807.000')).toBe(9223372036854775807n);
  });

  it('never reads a number with a fraction as an integer, even where the nearest double is one', () => {
    for (const text of ['9007199254740993.5', '4.9999999999999999', '1e-400', '12345678901234567890.1']) {
      const n = read(text);
      expect(typeof n === 'number' && Number.isInteger(n), text).toBe(false);
    }
    expect(read('1.5')).toBe(1.5);
    expect(read('25e-1')).toBe(2.5);
  });

  it('leaves exponents too large to expand to a double, in a moment', () => {
    // CPU time, which a busy machine does not stretch as it does the wall clock.
    const started = process.cpuUsage();
    expect(read('1e999999999')).toBe(Number.POSITIVE_INFINITY);
    expect(read('1e30')).toBe(1e30);
    const { user, system } = process.cpuUsage(started);
    expect((user + system) / 1000).toBeLessThan(100);
  });

  it("reads every text as lossless-json does, through the engine's parser or not: same value, or the same refusal", () => {
    // Plain JSON, and JSON cut, with a key repeated or with long or exact numbers spliced in: where the fast way could differ.
    const texts = fc.oneof(
      fc.json(),
      fc.tuple(fc.json(), fc.nat()).map(([text, cut]) => text.slice(0, cut % (text.length + 1))),
      fc.tuple(fc.string(), fc.json(), fc.json()).map(([key, a, b]) => `{${JSON.stringify(key)}:${a}, ${JSON.stringify(key)} :${b}}`),
      fc.tuple(fc.json(), fc.constantFrom('1.0', '4.9999999999999999', '9007199254740993', '1e2', '-0', '"a\\":1')).map(([text, n]) => text.replace(/\d+/, n)),
    );
    const lossless = (text: string) => {
      try {
        return { value: parseLossless(text, null, (digits) => parseJson(digits)) };
      } catch (error) {
        return { error: (error as Error).message };
      }
    };
    fc.assert(
      fc.property(texts, (text) => {
        const expected = lossless(text);
        if ('error' in expected) expect(() => parseJson(text)).toThrow(expected.error);
        else expect(stringifyLossless(parseJson(text))).toBe(stringifyLossless(expected.value));
      }),
      { numRuns: 500 },
    );
  });

  it('writes what lossless-json writes, bigints and all', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.bigInt(), (value, big) => {
        expect(stringifyJson(value)).toBe(stringifyLossless(value));
        expect(stringifyJson({ value, big })).toBe(stringifyLossless({ value, big }));
      }),
    );
  });
});
