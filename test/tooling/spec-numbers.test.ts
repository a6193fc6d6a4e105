/**
 * `limit`'s bounds are the spec's: `minimum` and `maximum` of listPets's parameter, read here from the
 * resource model. Every other place that writes them (the spec's own prose and examples, docs,
 * examples, comments, tests) is a copy, and this test fails when a copy disagrees with the schema:
 * a range "1 to 100" or "1..100", a "<= 100", a clamp "to 100", a page "of at most 100" or a limit
 * "above 100", a "default 20", or a `limit=` that is neither a page size the spec allows, the first
 * value past it, nor a value far beyond it. Tests read the bounds from test/support/page-size.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openapi } from '../../src/generated/openapi.js';
import { BUNDLED_MODEL } from '../../src/openapi/bundled-model.js';
import { operationOfKind } from '../../src/openapi/resource-model.js';
import { VARIANT_LIMIT_MAXIMUM } from '../support/variant-spec.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface Bounds {
  readonly minimum: number;
  readonly maximum: number;
  readonly default?: number | undefined;
}

const pageSize = operationOfKind(BUNDLED_MODEL, 'list')?.pageSize;
if (pageSize === undefined) throw new Error('the spec has no page size on its list');

/** Folders whose text may copy the bounds; the changelog tells what was, and generated files follow the spec by construction. */
const SCANNED = ['README.md', 'docs', 'examples', 'spec/openapi.yaml', 'src', 'test', 'bench'];
const SKIPPED = /(^|\/)(node_modules|generated|pacts|dredd|programs|independent)(\/|$)|RESULTS\.md$|\.png$/;

function filesUnder(path: string): string[] {
  const full = join(root, path);
  try {
    return readdirSync(full, { withFileTypes: true }).flatMap((entry) => filesUnder(join(path, entry.name)));
  } catch {
    return SKIPPED.test(path) || !/\.(ts|md|yaml|mts|js|mjs|cjs)$/.test(path) ? [] : [path];
  }
}

/** Where a line of `text` writes `limit`'s bounds otherwise than `bounds`, as `file:line: what`. */
function disagreements(file: string, text: string, { minimum, maximum, default: defaultPage }: Bounds): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    if (!/\blimit\b/i.test(line)) return;
    const at = `${file}:${index + 1}`;
    // Another range on the line (categories 1..10) is not limit's.
    for (const [, spaced, spacedTo, dotted, dottedTo] of line.matchAll(/(?<!categor\w* )(?:\b(\d+) (?:to|\.\.) ?(\d+)\b|\b(\d+)\.\.(\d+)\b)/g)) {
      const [from, to] = [spaced ?? dotted, spacedTo ?? dottedTo];
      if (from !== undefined && to !== undefined && (Number(from) !== minimum || Number(to) !== maximum))
        found.push(`${at}: a range ${from} to ${to}, where the spec says ${minimum} to ${maximum}`);
    }
    for (const [phrase, value] of line.matchAll(/(?:must be <= ?|min\(limit, ?)(\d+)/g)) {
      if (Number(value) !== maximum) found.push(`${at}: "${phrase}", where the spec's maximum is ${maximum}`);
    }
    for (const [phrase, ...values] of line.matchAll(/\b(?:at most (\d+) pets|page of at most (\d+)|above (\d+)|maximum (\d+))\b/g)) {
      const value = Number(values.find((group) => group !== undefined));
      if (![minimum, maximum, defaultPage].includes(value))
        found.push(`${at}: "${phrase}", where the spec's bounds are ${minimum} and ${maximum}, its default ${defaultPage}`);
    }
    for (const [phrase, value] of line.matchAll(/\bdefault (?:page )?(?:of )?(\d+)\b/g)) {
      if (Number(value) !== defaultPage) found.push(`${at}: "${phrase}", where the spec's default is ${defaultPage}`);
    }
    for (const [phrase, value] of line.matchAll(/clamp(?:ed)? (?:in)?to (\d+)/g)) {
      if (Number(value) !== maximum && Number(value) !== minimum) found.push(`${at}: "${phrase}", where the spec's bounds are ${minimum} and ${maximum}`);
    }
    for (const [phrase, value] of line.matchAll(/\blimit=(\d+)/g)) {
      const n = Number(value);
      // A page the spec allows, the first value past it, or one far beyond it (out of range whatever the bound).
      if (n > maximum + 1 && n < 5 * maximum)
        found.push(`${at}: "${phrase}" is neither a page size of ${minimum} to ${maximum}, ${maximum + 1}, nor far beyond`);
    }
  });
  return found;
}

/** The page size parameter's own description, which names the bounds without naming the parameter. */
function parameterDescription(): [string, string] {
  const list = operationOfKind(BUNDLED_MODEL, 'list');
  const parameter = openapi.paths['/pets'].get.parameters.find((candidate) => candidate.name === list?.pageSize?.parameter);
  return ['spec/openapi.yaml: the description of limit', `limit: ${parameter?.description ?? ''}`];
}

const files = SCANNED.flatMap(filesUnder).filter((file) => file !== relative(root, fileURLToPath(import.meta.url)));
const texts = [...files.map((file): [string, string] => [file, readFileSync(join(root, file), 'utf8')]), parameterDescription()];

describe("limit's bounds", () => {
  it(`are the spec's wherever they are written (${pageSize.minimum} to ${pageSize.maximum}): docs, examples, the spec's prose, comments and tests`, () => {
    expect(texts.length).toBeGreaterThan(100);
    expect(texts.flatMap(([file, text]) => disagreements(file, text, pageSize))).toEqual([]);
  });

  it('leave no copy behind a change of the maximum but the spec’s own prose and example, which it names', () => {
    const stale = texts.flatMap(([file, text]) => disagreements(file, text, { ...pageSize, maximum: VARIANT_LIMIT_MAXIMUM }));
    expect(stale.filter((line) => line.startsWith('spec/openapi.yaml')).length).toBeGreaterThanOrEqual(3);
    // Docs, examples and tests read the bounds from the spec or need none: the spec's edit is the only one.
    expect(stale.filter((line) => !line.startsWith('spec/openapi.yaml'))).toEqual([]);
  });
});
