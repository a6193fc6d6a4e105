/**
 * The msw options that README.md, docs/, examples/ and the JSDoc of `petstore-mock/msw` show, checked
 * against the msw major each snippet is for. msw 3 renamed `onUnhandledRequest` to `onUnhandledFrame` and
 * ignores the old name: a snippet copied into the wrong major still type-checks nowhere, but at run time
 * lets a request no handler claims reach the network instead of failing the test.
 *
 * Which major a snippet is for: on a line, the text after "msw N" is for msw N, and the text before any such
 * mention is for the msw this repository installs (its devDependency, which runs the examples); in a table,
 * a column headed "msw N" is for msw N. Every `listen({...})` and `start({...})` found that way is
 * type-checked against that major's `setupServer().listen` or `setupWorker().start`, and its `onUnhandled*`
 * strategy is run: an unclaimed request must be rejected ('error'), or reach the network with ('warn') or
 * without ('bypass') a warning. The installed msw is checked in place; the other major in a temporary project
 * (installed from the registry or npm's cache, run on Node 24, as test/package/consumers.test.ts does).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newProject, nodeBinOf, root, run, TIMEOUT } from '../package/projects.js';

const tsc = join(root, 'node_modules/typescript/bin/tsc');
const installedMajor = Number((JSON.parse(readFileSync(join(root, 'node_modules/msw/package.json'), 'utf8')) as { version: string }).version.split('.')[0]);
/** The majors `msw` (peerDependencies) accepts: the installed one, and the other in a temporary project. */
const MAJORS = [...new Set([installedMajor, 2, 3])];

/** One options object a snippet passes to msw: where it is shown, for which major, and to which call. */
interface Shown {
  readonly where: string;
  readonly major: number;
  readonly api: 'listen' | 'start';
  readonly options: string;
  /** Shown in code (a code block, an example file, a JSDoc example) rather than in a sentence or a table. */
  readonly code: boolean;
}

const CALL = /\b(listen|start)\(\s*(\{[^{}]*\})\s*\)/g;
const MENTION = /\bmsw (\d+)\b/gi;

/** The calls on one line of text: before any "msw N" for `major`, after "msw N" for N. */
function shownOnLine(line: string, where: string, major: number, code: boolean): Shown[] {
  const cuts = [...line.matchAll(MENTION)];
  const segments = [{ major, text: line.slice(0, cuts[0]?.index ?? line.length) }];
  cuts.forEach((cut, i) => {
    segments.push({ major: Number(cut[1]), text: line.slice(cut.index, cuts[i + 1]?.index ?? line.length) });
  });
  return segments.flatMap((segment) =>
    [...segment.text.matchAll(CALL)].map(([, api, options]) => ({ where, major: segment.major, api: api as Shown['api'], options: options as string, code })),
  );
}

const cells = (row: string) =>
  row
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|');

/** The calls a markdown page shows, in its code blocks, tables and sentences. */
function shownInMarkdown(path: string, text: string): Shown[] {
  const found: Shown[] = [];
  let inCode = false;
  let header: (number | undefined)[] | undefined;
  text.split('\n').forEach((line, i) => {
    const where = `${path}:${i + 1}`;
    if (line.startsWith('```')) inCode = !inCode;
    else if (!inCode && line.startsWith('|')) {
      if (header === undefined) header = cells(line).map((cell) => Number(/\bmsw (\d+)\b/i.exec(cell)?.[1]) || undefined);
      else for (const [column, cell] of cells(line).entries()) found.push(...shownOnLine(cell, where, header?.[column] ?? installedMajor, false));
      return;
    } else found.push(...shownOnLine(line, where, installedMajor, inCode));
    header = undefined;
  });
  return found;
}

/** The calls shown by README.md, docs/*.md, every file under examples/ and `petstore-mock/msw`'s JSDoc. */
async function everyShown(): Promise<Shown[]> {
  const docs = (await readdir(join(root, 'docs'))).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);
  const examples = (await readdir(join(root, 'examples'), { recursive: true }))
    .filter((name) => /\.(?:[cm]?[jt]s|tsx)$/.test(name) && !name.includes('node_modules'))
    .map((name) => `examples/${name}`);
  const code = [...examples, 'src/mock/hosts/msw.ts'];
  const texts = await Promise.all([...docs, 'README.md', ...code].map(async (path) => [path, await readFile(join(root, path), 'utf8')] as const));
  return texts.flatMap(([path, text]) =>
    path.endsWith('.md') ? shownInMarkdown(path, text) : text.split('\n').flatMap((line, i) => shownOnLine(line, `${path}:${i + 1}`, installedMajor, true)),
  );
}

/** The options object as data: the snippets pass strings, booleans and numbers. */
function parseOptions(options: string): Record<string, string | boolean | number> {
  const body = options.slice(1, -1).trim();
  const pairs = body === '' ? [] : body.split(',').filter((pair) => pair.trim() !== '');
  return Object.fromEntries(
    pairs.map((pair) => {
      const found = /^\s*(\w+)\s*:\s*(?:'([^']*)'|"([^"]*)"|(true|false)|(\d+))\s*$/.exec(pair);
      if (!found) throw new Error(`cannot read the msw option \`${pair.trim()}\`: extend parseOptions in this test`);
      const [, key, single, double, flag, number] = found;
      return [key as string, single ?? double ?? (flag ? flag === 'true' : Number(number))];
    }),
  );
}

/** What msw does with a request no handler claims, for a strategy a snippet names. */
const EXPECTED: Record<string, { outcome: 'rejected' | 'network'; printed?: boolean }> = {
  error: { outcome: 'rejected' },
  warn: { outcome: 'network', printed: true },
  bypass: { outcome: 'network', printed: false },
};

// Runs in the project of one msw major: each options object in turn, one request no handler claims, and what became of it.
const RUNTIME = `import { once } from 'node:events';
import { createServer } from 'node:http';
import { setupServer } from 'msw/node';

const site = createServer((_request, response) => response.end('network')).listen(0, '127.0.0.1');
await once(site, 'listening');
const url = \`http://127.0.0.1:\${site.address().port}/unclaimed\`;
const results = [];
for (const options of JSON.parse(process.argv[2])) {
  const printed = [];
  const { warn, error } = console;
  console.warn = console.error = (...args) => printed.push(args.join(' '));
  const server = setupServer();
  server.listen(options);
  let outcome;
  try {
    outcome = (await (await fetch(url)).text()) === 'network' ? 'network' : 'other';
  } catch {
    outcome = 'rejected';
  }
  server.close();
  Object.assign(console, { warn, error });
  results.push({ outcome, printed: printed.length > 0 });
}
site.close();
console.log(JSON.stringify(results));
`;

interface MswProject {
  readonly dir: string;
  readonly nodeBin: string;
}

describe('the msw options the docs and examples show', () => {
  let shown: Shown[];
  const projects = new Map<number, Promise<MswProject>>();
  const temporary: string[] = [];

  beforeAll(async () => {
    shown = await everyShown();
    // The installed msw in place: a folder whose node_modules is this repository's.
    const here = await mkdtemp(join(tmpdir(), 'petstore-msw-options-'));
    temporary.push(here);
    await symlink(join(root, 'node_modules'), join(here, 'node_modules'), 'dir');
    projects.set(installedMajor, Promise.resolve({ dir: here, nodeBin: dirname(process.execPath) }));
    for (const major of MAJORS.filter((major) => major !== installedMajor)) {
      const started = (async () => {
        const nodeBin = await nodeBinOf('24');
        const { dir, install } = await newProject([`msw@${major}`], nodeBin);
        temporary.push(dir);
        if (install.code !== 0) throw new Error(`npm install msw@${major} failed:\n${install.output}`);
        return { dir, nodeBin };
      })();
      projects.set(major, started);
    }
    await Promise.allSettled(projects.values());
  }, TIMEOUT);

  afterAll(async () => {
    await Promise.all(temporary.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('are shown for each major, in code, and every code line with an unhandled-request option names it for msw 2 and msw 3', () => {
    for (const major of [2, 3])
      for (const api of ['listen', 'start'] as const)
        expect(
          shown.filter((item) => item.major === major && item.api === api && item.code),
          `no \`${api}()\` for msw ${major}`,
        ).not.toEqual([]);
    const majorsByLine = new Map<string, Set<number>>();
    for (const item of shown.filter((each) => each.code && /onUnhandled/.test(each.options)))
      majorsByLine.set(item.where, (majorsByLine.get(item.where) ?? new Set()).add(item.major));
    for (const [where, majors] of majorsByLine) expect(majors, `${where} names the option for msw 2 and msw 3`).toEqual(new Set([2, 3]));
  });

  describe.each(MAJORS)('msw %i', (major) => {
    const mine = () => shown.filter((item) => item.major === major);

    it(
      'type-checks each listen() and start() option shown for it, and rejects an option it does not know',
      async () => {
        const { dir, nodeBin } = await (projects.get(major) as Promise<MswProject>);
        const unknown = major === 2 ? 'onUnhandledFrame' : 'onUnhandledRequest';
        const lines = [
          "import { setupWorker } from 'msw/browser';",
          "import { setupServer } from 'msw/node';",
          `setupServer().listen({ ${unknown}: 'error' }); // the probe: the other major's name`,
          ...mine().map((item) => `${item.api === 'listen' ? 'setupServer().listen' : 'setupWorker().start'}(${item.options}); // ${item.where}`),
        ];
        await writeFile(join(dir, `options-${major}.mts`), `${lines.join('\n')}\n`);
        const compilerOptions = { target: 'ES2022', module: 'NodeNext', lib: ['ES2023', 'DOM'], types: [], strict: true, skipLibCheck: true, noEmit: true };
        await writeFile(join(dir, `tsconfig-${major}.json`), JSON.stringify({ compilerOptions, files: [`options-${major}.mts`] }));
        const compiled = await run('node', [tsc, '-p', `tsconfig-${major}.json`], dir, nodeBin);
        const failing = [...compiled.output.matchAll(/options-\d\.mts\((\d+),\d+\): (error TS\d+: .*)/g)].map(
          ([, line, error]) => `${lines[Number(line) - 1]}\n  ${error}`,
        );
        expect(failing[0], 'the probe must fail, or this check proves nothing').toMatch(/the probe/);
        expect(failing.slice(1), `msw ${major} does not know these options:\n${failing.slice(1).join('\n')}`).toEqual([]);
      },
      TIMEOUT,
    );

    it(
      'does with a request no handler claims what each unhandled-request strategy shown for it says',
      async () => {
        const { dir, nodeBin } = await (projects.get(major) as Promise<MswProject>);
        // worker.start() takes the same unhandled-request option as server.listen(): its strategies run here through setupServer.
        const cases = mine()
          .map((item) => ({ item, options: parseOptions(item.options) }))
          .filter(({ options }) => Object.keys(options).some((key) => key.startsWith('onUnhandled')));
        expect(cases).not.toEqual([]);
        await writeFile(join(dir, 'unclaimed.mjs'), RUNTIME);
        const ran = await run('node', ['unclaimed.mjs', JSON.stringify(cases.map(({ options }) => options))], dir, nodeBin);
        expect(ran.code, ran.output).toBe(0);
        const results = JSON.parse(ran.output.trim().split('\n').at(-1) as string) as { outcome: string; printed: boolean }[];
        cases.forEach(({ item, options }, i) => {
          const strategy = Object.entries(options).find(([key]) => key.startsWith('onUnhandled'))?.[1] as string;
          expect(results[i], `${item.where}: ${item.api}(${item.options}) with msw ${major}`).toMatchObject(EXPECTED[strategy] ?? {});
        });
      },
      TIMEOUT,
    );
  });
});
