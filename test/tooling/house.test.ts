/**
 * The layout's rules, checked on the code itself (docs/architecture.md draws them): each folder of src/
 * imports only the folders below it, so data flows one way (openapi -> state and operations -> pipeline
 * -> hosts), the mock and the verifier never lean on each other, and no function grows past what a
 * reader can hold (60 lines); and each file's name is its own in src/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Folders (or files) below everything else: they import only one another, never the mock or the verifier. */
const SHARED = [
  'src/errors.ts',
  'src/json',
  'src/http',
  'src/redact',
  'src/generated',
  'src/openapi',
  'src/types.ts',
  'src/profile',
  'src/fixtures',
  'src/terminal',
  'src/files',
  'src/bounds',
];
const MOCK_CORE = ['src/mock/core'];
const MOCK_STATE = [...MOCK_CORE, 'src/mock/state'];
const MOCK_MODEL = [...MOCK_STATE, 'src/mock/operations', 'src/mock/admin', 'src/mock/profile'];
const MOCK_PIPELINE = [...MOCK_MODEL, 'src/mock/pipeline'];
const MOCK_WIRING = [...MOCK_PIPELINE, 'src/mock/create-mock-api.ts', 'src/mock/options.ts'];

/** Each place in src/ and what it may import besides itself; the most specific place that holds a file decides. */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  'src/errors.ts': [],
  'src/json': [],
  'src/http': [],
  'src/terminal': [],
  'src/files': [],
  'src/bounds': [],
  'src/redact': [],
  'src/generated': [],
  'src/types.ts': ['src/generated'],
  // The byte bound of every answer (src/bounds), which a spec's body limit may not pass.
  'src/openapi': ['src/json', 'src/generated', 'src/errors.ts', 'src/files', 'src/bounds'],
  // A profile's refusal names an enum's values as every sentence does (src/terminal).
  'src/profile': ['src/openapi', 'src/json', 'src/generated', 'src/types.ts', 'src/errors.ts', 'src/terminal'],
  'src/fixtures': ['src/openapi', 'src/json', 'src/generated', 'src/types.ts', 'src/errors.ts'],
  // The client holds the URL it is given to the rule of every URL a user gives (src/http/user-url.ts), its
  // options to the rule of every option (src/bounds), a server's words to the rule of outside text (src/terminal),
  // its key to the one redactor (src/redact), and JSON to the package's bounds on it (src/json).
  'src/client': ['src/types.ts', 'src/generated', 'src/http', 'src/bounds', 'src/terminal', 'src/redact', 'src/json'],
  'src/mock/core': [...SHARED],
  'src/mock/state': [...SHARED, ...MOCK_CORE],
  'src/mock/operations': [...SHARED, ...MOCK_STATE],
  'src/mock/admin': [...SHARED, ...MOCK_STATE],
  'src/mock/profile': [...SHARED, ...MOCK_STATE, 'src/mock/operations'],
  'src/mock/pipeline': [...SHARED, ...MOCK_MODEL],
  'src/mock/create-mock-api.ts': [...SHARED, ...MOCK_WIRING],
  'src/mock/options.ts': [...SHARED, ...MOCK_PIPELINE],
  'src/mock/proxy': [...SHARED, ...MOCK_WIRING],
  'src/mock/hosts': [...SHARED, ...MOCK_WIRING, 'src/mock/proxy'],
  'src/testing': [...SHARED, ...MOCK_STATE],
  'src/contracts': [...SHARED],
  'src/index.ts': ['src'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(entry.name) && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const within = (file: string, place: string) => file === place || file.startsWith(`${place}/`);
const placeOf = (file: string) =>
  Object.keys(MAY_IMPORT)
    .filter((place) => within(file, place))
    .sort((a, b) => b.length - a.length)[0];

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
}

/** The files of this repository that `file` imports (statically or with `import()`), as repository paths. */
function importsOf(source: ts.SourceFile): string[] {
  const specifiers: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      specifiers.push(node.moduleSpecifier.text);
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0]))
      specifiers.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => relative(root, resolve(dirname(join(root, source.fileName)), specifier)).replace(/\.js$/, '.ts'));
}

const files = sourceFiles('src').filter((file) => !within(file, 'src/generated'));

describe('the house', () => {
  it('places every source file of src/ in a folder the rules know', () => {
    expect(files.filter((file) => placeOf(file) === undefined)).toEqual([]);
  });

  it('imports only downward: each folder imports itself and the folders below it', () => {
    const wrong: string[] = [];
    for (const file of files) {
      const place = placeOf(file) as string;
      for (const target of importsOf(parse(file))) {
        const allowed = within(target, place) || (MAY_IMPORT[place] ?? []).some((below) => within(target, below));
        if (!allowed) wrong.push(`${file} imports ${target}, but ${place} may import only ${(MAY_IMPORT[place] ?? []).join(', ') || 'itself'}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("names every source file of src/ once: a name says which room it is of (the entry points' index.ts aside)", () => {
    const byName = new Map<string, string[]>();
    for (const file of sourceFiles('src').filter((path) => !path.endsWith('/index.ts')))
      byName.set(file.split('/').at(-1) ?? file, [...(byName.get(file.split('/').at(-1) ?? file) ?? []), file]);
    expect([...byName.values()].filter((paths) => paths.length > 1)).toEqual([]);
  });

  it('keeps every function of src/ within 60 lines (generated code aside)', () => {
    const long: string[] = [];
    for (const file of files) {
      const source = parse(file);
      const visit = (node: ts.Node) => {
        if (ts.isFunctionLike(node) && 'body' in node && node.body) {
          const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
          const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
          if (last - first + 1 > 60) long.push(`${file}:${first + 1} (${last - first + 1} lines)`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(long).toEqual([]);
  });
});
