/**
 * Temporary consumer projects, as test/package/consumers.test.ts makes them: the packed package and the
 * tools a consumer brings, installed from the registry (or npm's cache) into a new folder, run on a Node
 * that scripts/with-node.sh fetches. Shared by the suites that install third-party tools (msw 3, Jest,
 * Playwright Test) rather than adding them to this repository's devDependencies.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFile } from '../support/children.js';

export const root = fileURLToPath(new URL('../../', import.meta.url));
/** The bound of one install or one run of a tool: registries and cold caches are slow. */
export const TIMEOUT = 240_000;

export interface Run {
  readonly code: number | null;
  readonly output: string;
}

// npm run test passes its own npm_* settings down, and a developer's shell may hold a key: the new projects inherit neither.
const env = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_') && name !== 'PETSTORE_API_KEY' && name !== 'PETSTORE_BASE_URL'),
);

/** Runs `command` with `nodeBin` first on PATH, so `npm`, `npx` and the scripts run on that Node. */
export function run(command: string, args: readonly string[], cwd: string, nodeBin: string, extraEnv: Record<string, string> = {}): Promise<Run> {
  const PATH = `${nodeBin}${delimiter}${env.PATH ?? ''}`;
  const options = {
    cwd,
    timeout: TIMEOUT,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...env, PATH, NO_COLOR: '1', PACT_DO_NOT_TRACK: 'true', ...extraEnv },
  };
  return new Promise((resolve) => {
    execFile(command, args, options, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, output: stdout + stderr }),
    );
  });
}

/** The folder holding the `node` of `version` (a major such as 24, or an exact version), fetched into the cache the first time. */
export async function nodeBinOf(version: string): Promise<string> {
  const found = await run(join(root, 'scripts/with-node.sh'), [version, '--', 'node', '-p', 'process.execPath'], root, dirname(process.execPath));
  if (found.code !== 0) throw new Error(`scripts/with-node.sh ${version} failed:\n${found.output}`);
  return dirname(found.output.trim());
}

/** `npm pack` of this repository into `dir`, without a rebuild: the suites beside this one read dist/ meanwhile. */
export async function pack(dir: string): Promise<string> {
  await readFile(join(root, 'dist/index.js')).catch(() => {
    throw new Error('dist/ is missing: run `npm run build` (npm test does) before this suite.');
  });
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], root, dirname(process.execPath));
  if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.output}`);
  const [{ filename }] = JSON.parse(packed.output) as [{ filename: string }];
  return join(dir, filename);
}

export interface Project {
  readonly dir: string;
  readonly install: Run;
}

/** A new ESM project (`"type": "module"`) with `packages` installed by npm on `nodeBin`'s Node. */
export async function newProject(packages: readonly string[], nodeBin: string, extraEnv: Record<string, string> = {}): Promise<Project> {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-project-'));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const install = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...packages], dir, nodeBin, extraEnv);
  return { dir, install };
}
