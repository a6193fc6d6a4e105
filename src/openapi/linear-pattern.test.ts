import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openapi } from '../generated/openapi.js';
import { compiledValidators, compileSpec } from './ajv.js';
import type { OpenApiDocument } from './document.js';
import { linearPattern, linearPatternProblems } from './linear-pattern.js';

/** Pieces of ECMAScript patterns: atoms of every kind, assertions, escapes, surrogate pairs. */
const ATOMS = [
  'a',
  'b',
  '.',
  '\\s',
  '\\S',
  '\\d',
  '\\w',
  '\\W',
  '[ab]',
  '[^a]',
  '[\\s]',
  '[\\S]',
  '[^\\s]',
  '[a\\s.]',
  '\\.',
  '\\u00e9',
  '\\u{1F600}',
  '\\p{L}',
  '[]',
  '[^]',
  '\\bx',
];
const TEXT = [
  'a',
  'a',
  'b',
  'A',
  'x',
  '1',
  ' ',
  '\t',
  '\n',
  '\r',
  '\u000b',
  '\u00a0',
  '\u1680',
  '\u2028',
  '\u3000',
  '\ufeff',
  '\u200b',
  'é',
  '\u{1F600}',
  '.',
  '-',
  '_',
];

const pattern: fc.Arbitrary<string> = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...ATOMS),
    fc
      .tuple(tie('expr'), fc.constantFrom('*', '+', '?', '{1,3}', '*?', '{2}', '{0}', '{0,2}', '{2,}', '+?', '??'))
      .map(([inner, quantifier]) => `(?:${inner})${quantifier}`),
    fc.tuple(tie('expr'), fc.constantFrom('|', '|b')).map(([inner, other]) => `(${inner}${other})`),
    fc.tuple(tie('expr'), tie('expr')).map(([left, right]) => left + right),
    fc.tuple(tie('expr'), tie('expr')).map(([left, right]) => `(${left}|${right})`),
    tie('expr').map((inner) => `^${inner}$`),
  ),
})).expr;

describe('linearPattern', () => {
  it('means what V8 means by the same pattern, with the `u` flag ajv sets (JSON Schema 2020-12 6.3.3)', () => {
    fc.assert(
      fc.property(pattern, fc.array(fc.string({ unit: fc.constantFrom(...TEXT), maxLength: 8 }), { minLength: 1, maxLength: 8 }), (source, texts) => {
        const native = new RegExp(source, 'u');
        const linear = linearPattern(source);
        for (const text of texts) expect(linear.test(text), `/${source}/u on ${JSON.stringify(text)}`).toBe(native.test(text));
      }),
      { numRuns: 1_000 },
    );
  });

  it('reads each escape as the one character it stands for, a surrogate pair written out as one', () => {
    const cases: [string, string, boolean][] = [
      ['^\\u0041\\u0042$', 'AB', true],
      ['^\\uD83D\\uDE00$', '\u{1F600}', true],
      ['^\\uD83D\\uDE00+$', '\u{1F600}\u{1F600}', true],
      ['^\\x41{2}\\u{42}$', 'AAB', true],
      ['^[\\]a]+\\]$', ']a]', true],
      ['^\\p{Lu}\\P{Lu}$', 'Éé', true],
      ['^\\cJ\\/$', '\n/', true],
    ];
    for (const [source, text, expected] of cases) {
      expect(new RegExp(source, 'u').test(text), source).toBe(expected);
      expect(linearPattern(source).test(text), source).toBe(expected);
    }
  });

  it('runs a pattern that backtracks for ever in V8 in one pass: an adversarial text costs what a benign one of its length does', () => {
    const nested = linearPattern('^(a+)+$');
    const cpu = (text: string) => {
      const start = process.cpuUsage();
      for (let i = 0; i < 5; i++) expect(nested.test(text)).toBe(false);
      const { user, system } = process.cpuUsage(start);
      return user + system;
    };
    cpu(`${'a'.repeat(100)}!`); // compiled and warm
    const benign = cpu('b'.repeat(10_001));
    // V8 takes about a second for 24 `a`s and doubles with each more; 10,000 would outlast the machine.
    const adversarial = cpu(`${'a'.repeat(10_000)}!`);
    // The automaton reads each character once whatever the text: a stated ratio, wide for a loaded machine.
    expect(adversarial).toBeLessThan(50 * benign + 200_000);
  });

  it('refuses, with why and what to write, a pattern it cannot run in linear time, and one that is not ECMAScript', () => {
    for (const source of ['^(a)\\1$', '^(?=a)a', '^(?!a)b', '(?<=a)b', '(a{1,100}){1,100}'])
      expect(() => linearPattern(source), source).toThrow(
        /^it cannot be run in time linear in the text it tests: .*: (write the pattern without backreferences, lookahead or lookbehind|write its repeats smaller .*)$/,
      );
    expect(() => linearPattern('a**')).toThrow(/is not an ECMAScript regular expression \(Invalid regular expression/);
  });
});

describe('a spec compiled with its patterns', () => {
  it('takes every pattern of the bundled spec (its generated validators run them on V8: each is one the linear engine runs too)', () => {
    expect(linearPatternProblems(openapi)).toEqual([]);
    expect(JSON.stringify(openapi)).toContain('"pattern"');
  });

  it('runs a pattern of a compiled spec in linear time, and refuses at compile a pattern it cannot, naming it by its JSON Pointer', () => {
    const doc = structuredClone(openapi) as unknown as { components: { schemas: { NewPet: { properties: Record<string, object> } } } };
    const name = doc.components.schemas.NewPet.properties;
    name.name = { ...name.name, maxLength: 20_000, pattern: '^(a+)+$' };
    // A property named like a keyword of data is a schema still; an example's `pattern` is data.
    name.default = { type: 'string', pattern: '^(a)\\1$', example: { pattern: '(?=x)' } };
    expect(() => compileSpec(doc as unknown as OpenApiDocument)).toThrow(
      /^the spec's pattern #\/components\/schemas\/NewPet\/properties\/default\/pattern "\^\(a\)\\\\1\$": it cannot be run in time linear/,
    );
    delete name.default;
    const body = compiledValidators(doc as unknown as OpenApiDocument)('createPetBody');
    const start = process.cpuUsage();
    expect(body?.({ name: `${'a'.repeat(10_000)}!`, categoryId: 1 })).toBe(false);
    const { user, system } = process.cpuUsage(start);
    // V8's engine would not end; the automaton takes a few milliseconds. A second is a bound no loaded machine reaches.
    expect(user + system).toBeLessThan(1_000_000);
    expect(body?.errors?.[0]).toMatchObject({ keyword: 'pattern', instancePath: '/name' });
  });
});

describe('what an automaton keeps', () => {
  it('keeps at most 200 state numbers a state of what it learned: 20 patterns of 35 states over texts no set repeats hold little', () => {
    // The heap held after a collection, not the process's size: what is kept, not what was made and dropped.
    v8.setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    let seed = 7;
    const text = Array.from({ length: 30_000 }, () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed < 2 ** 30 ? 'a' : 'b';
    }).join('');
    const patterns = Array.from({ length: 20 }, (_, index) => linearPattern(`a[ab]{32}c${'x'.repeat(index)}`));
    gc();
    const before = process.memoryUsage().heapUsed;
    for (const pattern of patterns) expect(pattern.test(text)).toBe(false);
    gc();
    // Each kept 200,000 state numbers whatever its size: 121 MiB for these 20.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(30 * 2 ** 20);
  });
});
