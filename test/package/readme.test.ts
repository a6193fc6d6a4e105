/**
 * README.md as the installed package shows it. On the npm page npm rewrites the README's relative links to
 * the repository, but a reader of node_modules/petstore-mock/README.md (an editor's preview, a machine
 * offline) follows them inside the package: each must name a file the tarball ships, at the version
 * installed. The docs pages ship for that reason (package.json `files`), and their links are checked the
 * same way. An anchor (`page.md#heading`) must name a heading of its page, as GitHub and npm derive its id.
 */
import { readdir, readFile } from 'node:fs/promises';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { execFile } from '../support/children.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Files that docs pages link and the tarball does not ship: benchmark figures and the browser example, for
 * contributors, and the inspector's picture (160 KB, which took the install past its 10 MiB; the page's
 * words say what it shows). They resolve in the repository and on GitHub only; written as absolute links
 * to the repository, they would work from the installed package too, and leave this list.
 */
const REPOSITORY_ONLY = ['bench/RESULTS.md', 'bench/mutation/SURVIVORS.md', 'bench/mutation/triage.ts', 'examples/browser', 'docs/inspector.png'];

// npm run test passes its own npm_* settings down: the dry run must pack as a publish would.
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));

/** The paths `npm pack` puts in the tarball, relative to the package's root. */
function packedFiles(): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, env, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`npm pack --dry-run failed: ${stderr}`));
      const [{ files }] = JSON.parse(stdout) as [{ files: { path: string }[] }];
      resolve(files.map(({ path }) => path));
    });
  });
}

/** The page without its code blocks, where a line that starts with `#` is no heading. */
function withoutCodeBlocks(text: string): string {
  return text.replace(/^(```|~~~)[\s\S]*?^\1/gm, '');
}

/** The page without its code: a link-like text in a code block or a code span is not a link. */
function prose(text: string): string {
  return withoutCodeBlocks(text).replace(/`[^`\n]*`/g, '');
}

/** Every link target of a Markdown page: inline links and images, reference definitions, and HTML href and src. */
function linkTargets(text: string): string[] {
  const page = prose(text);
  const inline = [...page.matchAll(/\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g)].map((match) => match[1]);
  const references = [...page.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/gm)].map((match) => match[1]);
  const html = [...page.matchAll(/\s(?:href|src)="([^"]+)"/g)].map((match) => match[1]);
  return [...inline, ...references, ...html].filter((target): target is string => target !== undefined);
}

/** The ids GitHub (and npm) give the headings of a page: lower case, punctuation (backticks too) dropped, spaces as `-`, repeats numbered. */
function headingIds(text: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of withoutCodeBlocks(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    // A link shows its text; a code span its content, `<file>` included.
    const words = (heading ?? '').replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').toLowerCase();
    const id = words.replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '').replace(/\s/g, '-');
    const times = seen.get(id) ?? 0;
    seen.set(id, times + 1);
    ids.add(times === 0 ? id : `${id}-${times}`);
  }
  // An anchor written out (`<a id="name"></a>`), as GitHub renders it too.
  for (const [, id] of withoutCodeBlocks(text).matchAll(/<a id="([^"]+)"><\/a>/g)) ids.add(id ?? '');
  return ids;
}

/** Why `target`, linked from `page`, does not work inside the tarball; undefined when it does. */
async function problemOf(page: string, target: string, packed: readonly string[]): Promise<string | undefined> {
  // A URL (https:, mailto:) leaves the package by design.
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined;
  const [path = '', anchor] = target.split('#');
  const file = path === '' ? page : posix.normalize(posix.join(posix.dirname(page), decodeURIComponent(path)));
  if (file.startsWith('../')) return `${page} links ${target}, outside the package`;
  const isFile = packed.includes(file);
  if (!isFile && !packed.some((shipped) => shipped.startsWith(`${file.replace(/\/$/, '')}/`))) return `${page} links ${target}, and the tarball has no ${file}`;
  if (anchor === undefined || !isFile || !file.endsWith('.md')) return undefined;
  const ids = headingIds(await readFile(posix.join(root, file), 'utf8'));
  return ids.has(decodeURIComponent(anchor)) ? undefined : `${page} links ${target}, and ${file} has no heading with the id ${anchor}`;
}

/** The problem of each link of `page` inside the tarball. */
async function problemsOf(page: string, packed: readonly string[]): Promise<string[]> {
  const targets = linkTargets(await readFile(posix.join(root, page), 'utf8'));
  const problems = await Promise.all(targets.map((target) => problemOf(page, target, packed)));
  return problems.filter((problem): problem is string => problem !== undefined);
}

describe('README.md and the docs pages in the packed package', () => {
  let packed: string[];
  beforeAll(async () => {
    packed = await packedFiles();
  });

  it('ships the README and every page under docs/', async () => {
    expect(packed).toContain('README.md');
    const pages = (await readdir(posix.join(root, 'docs'))).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.filter((page) => !packed.includes(page))).toEqual([]);
  });

  it('links from README.md only to files the tarball ships, and to headings those pages have', async () => {
    const targets = linkTargets(await readFile(posix.join(root, 'README.md'), 'utf8'));
    expect(targets.filter((target) => target.startsWith('docs/')).length, 'README.md links its docs pages').toBeGreaterThan(5);
    expect(await problemsOf('README.md', packed)).toEqual([]);
  });

  it('links from each docs page only to files the tarball ships (apart from the repository-only files named above)', async () => {
    const pages = packed.filter((path) => path.startsWith('docs/') && path.endsWith('.md'));
    const problems = (await Promise.all(pages.map((page) => problemsOf(page, packed)))).flat();
    const outside = (file: string) => (problem: string) => problem.endsWith(`the tarball has no ${file}`);
    expect(problems.filter((problem) => !REPOSITORY_ONLY.some((file) => outside(file)(problem)))).toEqual([]);
    // The list names only what a page still links: a link made absolute takes its file off the list.
    expect(REPOSITORY_ONLY.filter((file) => !problems.some(outside(file)))).toEqual([]);
  });
});
