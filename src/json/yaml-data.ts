/**
 * YAML read as data, within bounds: what a file of pets or a spec holds, never more than its text
 * says. The `yaml` package recurses once per level of nesting as it builds a document, and expands
 * aliases (`*name`) as often as they appear, so a file 20,000 levels deep exhausts the stack ("Maximum
 * call stack size exceeded"), a few lines of aliases of aliases expand to billions of nodes, and an
 * alias inside the node it names makes an endless value. Here each is refused with a sentence:
 * - nesting deeper than `MAX_JSON_DEPTH` (128 levels, as for JSON), measured on the parser's tokens,
 *   which it builds without recursion, before the document is built;
 * - more than `MAX_YAML_ALIASES` expansions of aliases (the `yaml` package's own measure);
 * - an alias inside the node it names, and nesting past 128 levels once aliases are expanded;
 * - a key given twice in one mapping, found here with a set per mapping: the package's own check
 *   compares each key with every key before it, which takes seconds for a mapping of 10,000 keys
 *   and hours for one of a million (its option `uniqueKeys: false` turns it off);
 * - a tag outside YAML 1.2's JSON schema (`!!binary`, `!!set`, `!!timestamp`, `!local`...): the data is
 *   JSON written as YAML (OpenAPI 3.1 4.3 asks the same of a spec), and the package resolves the tags
 *   of YAML 1.1 it knows into values no JSON holds (`!!binary` a byte array that a check of pets then
 *   walks byte by byte: a 2.8 MB file took 760 MB and 3 s to refuse).
 * - more than `MAX_YAML_NODES` nodes (values, keys and collections), counted as the parser meets them
 *   and refused at once: the package holds about 1 KB per node while it builds a document (a 5 MB
 *   file of 1.2 million nodes took 33 s and 1 GB before it was refused for its content), so the
 *   byte caps of the flags alone left YAML 150 times its size in memory; JSON has no such cost.
 * The text is parsed in pieces with a turn of the event loop between them, so SIGINT and SIGTERM stop
 * the process while a large file is parsed.
 */
import { setImmediate } from 'node:timers/promises';
import type { CST, Document, LineCounter, YAMLError } from 'yaml';
import { MAX_JSON_DEPTH } from './lossless.js';

type Yaml = typeof import('yaml');

let loading: Promise<Yaml> | undefined;
/**
 * The `yaml` package, loaded with the first YAML text: most runs of the CLIs read none (the bundled spec
 * is JSON), and its import was a fifth of a CLI's start (about 40 ms of CPU of some 180).
 */
function yamlPackage(): Promise<Yaml> {
  loading ??= import('yaml');
  return loading;
}

/** How many times aliases may be expanded in one document: the `yaml` package's default, ample for anchors of shared fields. */
const MAX_YAML_ALIASES = 100;

/**
 * The tags a value may carry: those of YAML 1.2's JSON schema (10.2), whose values JSON has, and `!`,
 * which only says "not a plain scalar" (a string). Any other names a type JSON does not have.
 */
const JSON_TAGS = new Set(['!', ...['str', 'int', 'float', 'bool', 'null', 'seq', 'map'].map((type) => `tag:yaml.org,2002:${type}`)]);

/**
 * The most nodes a YAML text may hold: 100 times the bundled spec's (under 1,000), and about 10,000
 * pets of a `--data` file; the parse stays within about 100 MB and a few seconds. Larger data is read
 * as JSON, whose parse holds its values alone.
 */
const MAX_YAML_NODES = 100_000;

/** Whether a lexeme of the `yaml` lexer starts a node: a scalar (plain, quoted, block), an alias, a flow collection, a sequence item. */
function startsNode(lexeme: string): boolean {
  const first = lexeme[0];
  return (
    lexeme === '\x1f' || lexeme === '{' || lexeme === '[' || lexeme === '-' || first === '"' || first === "'" || first === '*' || first === '|' || first === '>'
  );
}

/** The package's parser, counting the nodes it meets and refusing the text past `MAX_YAML_NODES` before it builds more. */
function boundedParser({ Parser }: Yaml, onNewLine: (offset: number) => void, lines: LineCounter) {
  return new (class BoundedParser extends Parser {
    #nodes = 0;

    override *next(lexeme: string): Generator<CST.Token, void> {
      if (startsNode(lexeme) && ++this.#nodes > MAX_YAML_NODES)
        throw new YamlDataError(
          `it holds more than ${MAX_YAML_NODES.toLocaleString('en-US')} YAML nodes (values, keys and lists; the one past them is at ${place(lines, this.offset)}), which YAML takes about 1 KB of memory each to read: write the data as JSON, which has no such bound below the size cap`,
        );
      yield* super.next(lexeme);
    }
  })(onNewLine);
}

/** Characters parsed between two turns of the event loop. */
const PIECE = 64 * 1024;

/** A YAML text refused: not YAML, too deep, an alias bomb or an endless alias. Its message says which and where. */
class YamlDataError extends SyntaxError {
  override readonly name = 'YamlDataError';
}

/** The children of a token: a document's value, a collection's keys and values. */
function childrenOf(token: CST.Token): CST.Token[] {
  if (token.type === 'document') return token.value === undefined ? [] : [token.value];
  if (token.type !== 'block-map' && token.type !== 'block-seq' && token.type !== 'flow-collection') return [];
  return token.items.flatMap((item): CST.Token[] => [...('key' in item && item.key ? [item.key] : []), ...(item.value ? [item.value] : [])]);
}

/** The offset of the first collection nested deeper than `limit` in `tokens`, if one is: walked with a stack, not recursion. */
function tooDeepAt(tokens: readonly CST.Token[], limit: number): number | undefined {
  const stack: [CST.Token, number][] = tokens.map((token) => [token, 0]);
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [token, above] = next;
    const depth = token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection' ? above + 1 : above;
    if (depth > limit) return token.offset;
    for (const child of childrenOf(token)) stack.push([child, depth]);
  }
  return undefined;
}

/** Where an offset is, for a message: `line 3, column 5`. */
function place(lines: LineCounter, offset: number): string {
  const { line, col } = lines.linePos(offset);
  return `line ${line}, column ${col}`;
}

/** The parser's tokens of `text`, made a piece at a time, with a turn of the event loop after each piece. */
async function tokensOf(yaml: Yaml, text: string, lines: LineCounter): Promise<CST.Token[]> {
  // The parser counts a line at offset 0 each time it is handed text before it has read any: once is right.
  const parser = boundedParser(
    yaml,
    (offset) => {
      if (lines.lineStarts.at(-1) !== offset) lines.addNewLine(offset);
    },
    lines,
  );
  const tokens: CST.Token[] = [];
  for (let at = 0; at < text.length; at += PIECE) {
    for (const token of parser.parse(text.slice(at, at + PIECE), true)) tokens.push(token);
    await setImmediate();
  }
  for (const token of parser.parse('', false)) tokens.push(token);
  return tokens;
}

/** Where the first key given twice in one mapping of `document` is, if one is: each mapping's scalar keys in a set, as the package compares them (same value, same type). */
function duplicateKeyAt({ visit, isScalar }: Yaml, document: Document.Parsed): number | undefined {
  let at: number | undefined;
  visit(document, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const { key } of map.items) {
        if (!isScalar(key)) continue;
        if (seen.has(key.value)) {
          at = key.range?.[0] ?? 0;
          return visit.BREAK;
        }
        seen.add(key.value);
      }
      return undefined;
    },
  });
  return at;
}

/** The first node of `document` with a tag outside `JSON_TAGS`, as it is written (`!!binary`) and where, if one is. */
function foreignTagAt({ visit, isNode }: Yaml, document: Document.Parsed): { tag: string; offset: number } | undefined {
  let found: { tag: string; offset: number } | undefined;
  visit(document, (_, node) => {
    if (!isNode(node) || node.tag === undefined || JSON_TAGS.has(node.tag)) return undefined;
    found = { tag: node.tag.replace(/^tag:yaml\.org,2002:/, '!!'), offset: node.range?.[0] ?? 0 };
    return visit.BREAK;
  });
  return found;
}

/**
 * Throws a `YamlDataError` when `value` holds itself (an alias inside the node it names), or nests
 * deeper than `MAX_JSON_DEPTH` once its aliases are expanded; so the walk never goes deeper either.
 */
function refuseEndless(value: unknown, ancestors: unknown[] = []): void {
  if (typeof value !== 'object' || value === null) return;
  if (ancestors.includes(value)) throw new YamlDataError('an alias (*name) stands inside the node it names, which would make the data endless');
  if (ancestors.length >= MAX_JSON_DEPTH) throw new YamlDataError(`it nests deeper than ${MAX_JSON_DEPTH} levels once its aliases (*name) are expanded`);
  ancestors.push(value);
  for (const child of Object.values(value)) refuseEndless(child, ancestors);
  ancestors.pop();
}

/**
 * The value of the one YAML document in `text`, its integers numbers, or with `exactIntegers` each a
 * `bigint` (exact beyond 2^53); rejects with a `YamlDataError` naming the fault and where it is.
 * @example
 * await parseYamlData('- {id: 1, name: Rex}', { exactIntegers: true }); // [{ id: 1n, name: 'Rex' }]
 * await parseYamlData('a: &a [*a]');                                    // YamlDataError: an alias (*name) stands inside the node it names, ...
 */
export async function parseYamlData(text: string, { exactIntegers = false } = {}): Promise<unknown> {
  const yaml = await yamlPackage();
  const lines = new yaml.LineCounter();
  const tokens = await tokensOf(yaml, text, lines);
  const deep = tooDeepAt(tokens, MAX_JSON_DEPTH);
  if (deep !== undefined) throw new YamlDataError(`it nests deeper than ${MAX_JSON_DEPTH} levels, at ${place(lines, deep)}`);
  const documents = [...new yaml.Composer({ intAsBigInt: exactIntegers, uniqueKeys: false }).compose(tokens, true, text.length)];
  const [document, second] = documents;
  if (second !== undefined) throw new YamlDataError(`it holds more than one document (a second starts at ${place(lines, second.range[0])}); keep one`);
  const [error]: YAMLError[] = document?.errors ?? [];
  if (error !== undefined) throw new YamlDataError(`${error.message.split('\n')[0]} at ${place(lines, error.pos[0])}`);
  const duplicate = document === undefined ? undefined : duplicateKeyAt(yaml, document);
  if (duplicate !== undefined) throw new YamlDataError(`Map keys must be unique at ${place(lines, duplicate)}`);
  const foreign = document === undefined ? undefined : foreignTagAt(yaml, document);
  if (foreign !== undefined)
    throw new YamlDataError(
      `the tag ${foreign.tag} on the value at ${place(lines, foreign.offset)} names a type JSON does not have: this YAML is JSON data, whose values are strings, numbers, booleans, null, lists and mappings; remove the tag (write the value as a string if it is text)`,
    );
  let value: unknown;
  try {
    value = document?.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (thrown) {
    if (!(thrown instanceof ReferenceError)) throw thrown;
    throw new YamlDataError(`its aliases (*name) expand more than ${MAX_YAML_ALIASES} times over, as an alias bomb does: ${thrown.message}`);
  }
  refuseEndless(value);
  return value;
}
