import { describe, expect, it } from 'vitest';
import { parseYamlData } from './yaml-data.js';

describe('parseYamlData', () => {
  it('reads a document as data, integers exact as bigints, anchors of shared fields expanded', async () => {
    expect(await parseYamlData('- {id: 9223372036854775807, name: Rex}\n- &gus {id: 2, name: Gus}\n- *gus\n', { exactIntegers: true })).toEqual([
      { id: 9223372036854775807n, name: 'Rex' },
      { id: 2n, name: 'Gus' },
      { id: 2n, name: 'Gus' },
    ]);
    expect(await parseYamlData('limit: {minimum: 1, maximum: 100}')).toEqual({ limit: { minimum: 1, maximum: 100 } });
  });

  // A wide bound for a busy machine: the parser's tokens of 20,000 levels take a second or two.
  it('refuses nesting past 128 levels with a sentence, in flow, block or sequence form, 20,000 deep too', { timeout: 30_000 }, async () => {
    for (const deep of [
      `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
      `${'- '.repeat(1_000)}x`,
      `${Array.from({ length: 200 }, (_, i) => `${' '.repeat(i)}a:`).join('\n')} 1`,
      `${'{a: '.repeat(129)}1${'}'.repeat(129)}`,
    ])
      await expect(parseYamlData(deep)).rejects.toThrow(/^it nests deeper than 128 levels, at line \d+, column \d+$/);
    await expect(parseYamlData(`${'['.repeat(200)}${']'.repeat(200)}`)).rejects.toThrow('it nests deeper than 128 levels, at line 1, column 129');
    await expect(parseYamlData(`${'['.repeat(128)}${']'.repeat(128)}`)).resolves.toBeDefined();
  });

  it('refuses an alias inside the node it names, which would make the data endless', async () => {
    for (const recursive of ['a: &a [*a]\n', '&x {k: *x}\n', '- &a\n  - b: *a\n'])
      await expect(parseYamlData(recursive)).rejects.toThrow(/an alias \(\*name\) stands inside the node it names/);
  });

  it('refuses an alias bomb: aliases of aliases expanding past 100', async () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (const [name, previous] of [
      ['b', 'a'],
      ['c', 'b'],
      ['d', 'c'],
      ['e', 'd'],
      ['f', 'e'],
    ])
      levels.push(`${name}: &${name} [${Array.from({ length: 10 }, () => `*${previous}`).join(', ')}]`);
    await expect(parseYamlData(levels.join('\n'))).rejects.toThrow(/aliases \(\*name\) expand more than 100 times over/);
  });

  it('refuses nesting past 128 levels made by aliases of deep nodes', async () => {
    const deep = (inner: string) => `${'['.repeat(100)}${inner}${']'.repeat(100)}`;
    await expect(parseYamlData(`a: &a ${deep('1')}\nb: ${deep('*a')}\n`)).rejects.toThrow(/deeper than 128 levels once its aliases/);
  });

  it('refuses a tag outside the JSON schema, naming it and where, and keeps the JSON ones', async () => {
    for (const [text, tag, where] of [
      ['- !!binary AAAA', '!!binary', 'line 1, column 12'],
      ['a: 1\nb: !!set {x, y}', '!!set', 'line 2, column 10'],
      ['- !!timestamp 2001-12-14', '!!timestamp', 'line 1, column 15'],
      ['- {name: !!js/function "f()"}', '!!js/function', 'line 1, column 24'],
      ['- !local x', '!local', 'line 1, column 10'],
      ['!!omap [a: 1]', '!!omap', 'line 1, column 8'],
    ] as const)
      await expect(parseYamlData(text)).rejects.toThrow(`the tag ${tag} on the value at ${where} names a type JSON does not have`);
    expect(await parseYamlData('- !!str 1\n- !!int "2"\n- !!float 3.5\n- !!bool true\n- !!null\n- !!map {a: !!seq [b]}\n- ! 7')).toEqual([
      '1',
      2,
      3.5,
      true,
      null,
      { a: ['b'] },
      '7',
    ]);
  });

  it('says what is not YAML, and where', async () => {
    await expect(parseYamlData('a: [1, 2\nb: 3')).rejects.toThrow(/at line \d+, column \d+$/);
    await expect(parseYamlData('a: 1\n---\nb: 2\n')).rejects.toThrow(/more than one document \(a second starts at line 2, column 1\)/);
  });

  it('refuses a key given twice in one mapping, and where, however it is written', async () => {
    await expect(parseYamlData('- id: 1\n  name: a\n  id: 2\n')).rejects.toThrow('Map keys must be unique at line 3, column 3');
    await expect(parseYamlData('{a: 1, "a": 2}')).rejects.toThrow('Map keys must be unique at line 1, column 8');
    // A number and a string are different keys in YAML, as the package compares them.
    await expect(parseYamlData('{1: a, "1": b, b: [{a: 1}, {a: 2}]}')).resolves.toBeDefined();
  });

  // Before, the package compared each key with every key before it: 10,000 keys took seconds, 200,000
  // would take half an hour. Linear or quadratic is told by CPU time, which a busy machine does not
  // stretch as it does the wall clock: eight times the keys take about eight times as long when the
  // parse is linear, sixty-four times when it is quadratic.
  it('reads 100,000 nodes, and refuses the one past them as the parser meets it', async () => {
    const list = (scalars: number) => `[${Array.from({ length: scalars }, (_, i) => i).join(', ')}]`;
    // The list is a node too.
    expect(((await parseYamlData(list(99_999))) as unknown[]).length).toBe(99_999);
    await expect(parseYamlData(list(100_000))).rejects.toThrow(/^it holds more than 100,000 YAML nodes .* at line 1, column \d+\)/);
  });

  it('reads a mapping in time linear in its number of keys', async () => {
    const mapping = (count: number) => `- id: 1\n${Array.from({ length: count }, (_, i) => `  k${i}: ${i}\n`).join('')}`;
    const cpuMs = async (text: string) => {
      const start = process.cpuUsage();
      const [pet] = (await parseYamlData(text)) as Record<string, unknown>[];
      const used = process.cpuUsage(start);
      return { ms: (used.user + used.system) / 1000, keys: Object.keys(pet ?? {}).length };
    };
    const [small, large] = [mapping(5_000), mapping(40_000)];
    // The smaller twice, the faster kept: the first parse also compiles the parser.
    const smallMs = Math.min((await cpuMs(small)).ms, (await cpuMs(small)).ms);
    const { ms: largeMs, keys } = await cpuMs(large);
    expect(keys).toBe(40_001);
    expect(largeMs / smallMs, `${smallMs} ms for 5,000 keys, ${largeMs} ms for 40,000`).toBeLessThan(24);
  });
});
