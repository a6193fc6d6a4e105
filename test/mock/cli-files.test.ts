/**
 * The files `petstore-mock` reads (`--data`, `--profile`, `--state`), attacked as a careless user or a
 * hostile file would (issue 34): a device that never ends, a named pipe nobody writes, a folder, a file
 * past the cap, YAML that nests 20,000 levels deep or holds itself through an alias, and a large file
 * read while the process is asked to stop. Each is the real CLI as a child process.
 */
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import type { Stats } from 'node:fs';
import { lstat, mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpuMicros } from '../../bench/cpu.js';
import { openapi } from '../../src/generated/openapi.js';
import { spawn } from '../support/children.js';
import { runCli, startMockCli } from '../support/cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'petstore-cli-files-'));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

/** A file of the test's folder holding `text`. */
async function file(name: string, text: string): Promise<string> {
  const path = join(folder, name);
  await writeFile(path, text);
  return path;
}

/** What the flags say of a file in the refusal: `--data` names the pets, `--profile` how to learn one. */
const FIX: Readonly<Record<string, RegExp>> = {
  '--data': /give a JSON or YAML file holding a list of pets/,
  '--profile': /learn one with petstore-verify --write-profile/,
};

describe('petstore-mock reads only regular files, up to 16 MiB', () => {
  for (const flag of ['--data', '--profile']) {
    it(`refuses ${flag} /dev/zero at once, with exit 2 and a sentence naming the flag and the fix`, async () => {
      const result = await runCli('petstore-mock', ['--port', '0', flag, '/dev/zero']);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        new RegExp(`^petstore-mock: ${flag} /dev/zero: It cannot be read: it is a character device \\(such as /dev/zero\\), not a regular file; `),
      );
      expect(result.stderr).toMatch(FIX[flag] as RegExp);
    });

    // A file of pets may be larger than any other file the mock reads: a million pets pass 16 MiB.
    const mib = flag === '--data' ? 256 : 16;
    it(`refuses for ${flag} a folder, a named pipe nobody writes, and a file past ${mib} MiB`, async () => {
      const pipe = join(folder, `pipe${flag}`);
      execFileSync('mkfifo', [pipe]);
      const large = await file(`large${flag}.json`, '');
      await truncate(large, mib * 1024 * 1024 + 1);
      for (const [path, why] of [
        [folder, 'it is a folder, not a file'],
        [pipe, 'it is a named pipe, not a regular file'],
        [large, `it is larger than ${mib} MiB, the most petstore-mock reads of such a file`],
      ] as const) {
        const result = await runCli('petstore-mock', ['--port', '0', flag, path]);
        expect([result.code, result.stderr]).toEqual([2, expect.stringContaining(`${flag} ${path}: It cannot be read: ${why}`)]);
      }
    });
  }

  it('refuses a --state file past 256 MiB, leaving it as it was, and one that is not a regular file', async () => {
    const large = await file('state.json', '');
    await truncate(large, 256 * 1024 * 1024 + 1);
    const result = await runCli('petstore-mock', ['--port', '0', '--state', large]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      `${large} is not a usable petstore-mock state file: it is larger than 256 MiB, the most petstore-mock reads of such a file.`,
    );
    const pipe = join(folder, 'state-pipe');
    execFileSync('mkfifo', [pipe]);
    // Each says what it is and what to give instead; none advises chmod, which makes no folder, pipe or device a state file.
    const refused: [path: string, what: string][] = [
      [pipe, 'it is a named pipe, not a regular file'],
      ['/dev/zero', 'it is a character device (such as /dev/zero), not a regular file'],
      [folder, 'it is a folder, not a file'],
    ];
    for (const [path, what] of refused) {
      const result = await runCli('petstore-mock', ['--port', '0', '--state', path]);
      expect(result.code, path).toBe(2);
      expect(result.stderr).toContain(`: ${what}, and the mock keeps its state in a regular file. Give the path of one`);
      expect(result.stderr).not.toContain('chmod');
    }
  });

  it('refuses a --record path that is no regular file before writing anything, leaving it as it was', async () => {
    const upstream = await startMockCli(['--port', '0', '--quiet']);
    try {
      const pipe = join(folder, 'record-pipe');
      execFileSync('mkfifo', [pipe]);
      // A link to a device: were the check gone, the recording's rename would replace the link, never the device.
      const device = join(folder, 'record-device');
      await symlink('/dev/null', device);
      const refused: [path: string, what: string, kind: (stats: Stats) => boolean][] = [
        [pipe, 'it is a named pipe, not a regular file', (stats) => stats.isFIFO()],
        [device, 'it is a character device (such as /dev/zero), not a regular file', (stats) => stats.isSymbolicLink()],
        [folder, 'it is a folder, not a file', (stats) => stats.isDirectory()],
      ];
      for (const [path, what, kind] of refused) {
        const result = await runCli('petstore-mock', ['--port', '0', '--proxy', upstream.url, '--record', path]);
        expect(result.code, path).toBe(2);
        expect(result.stderr).toContain(`--record ${path}: ${path}: ${what}, and a recording is written to regular files.`);
        expect(kind(await lstat(path)), path).toBe(true);
      }
    } finally {
      await upstream.stop();
    }
  });
});

// A file of /proc is regular for stat, of size 0, and holds a process's environment (its keys): every
// flag names it and what it is, never quoting it; a file that is no JSON is named, with where it breaks.
describe('a file of /proc, or one that is no JSON, is named and never quoted', () => {
  const secret = 'PETSTORE_SECRET=s3cr3t-not-json';
  it('--data, --profile and --state refuse /proc/self/environ saying what it is; petstore-verify --pact too', async () => {
    const env = { PETSTORE_SECRET: 's3cr3t-not-json' };
    for (const flag of ['--data', '--profile', '--state']) {
      const result = await runCli('petstore-mock', ['--port', '0', flag, '/proc/self/environ'], env);
      expect([result.code, result.stderr]).toEqual([
        2,
        expect.stringMatching(
          new RegExp(`^petstore-mock: ${flag} /proc/self/environ: .*it is made by the kernel as it is read \\(a file of /proc or /sys\\), not a regular file`),
        ),
      ]);
    }
    const verify = await runCli('petstore-verify', ['--pact', '/proc/self/environ', '--base-url', 'http://127.0.0.1:9'], {
      ...env,
      PETSTORE_API_KEY: 'verify-key-1',
    });
    expect([verify.code, verify.stdout + verify.stderr]).toEqual([
      2,
      expect.stringMatching(/cannot read the pact file \/proc\/self\/environ \(--pact\): it is made by the kernel as it is read/),
    ]);
  });

  it('a regular file that is no JSON is named with where it breaks, its text never quoted', async () => {
    const path = await file('dot-env.json', `${secret}\n`);
    const outputs = [
      await runCli('petstore-mock', ['--port', '0', '--profile', path]),
      await runCli('petstore-mock', ['--port', '0', '--state', path]),
      await runCli('petstore-verify', ['--pact', path, '--base-url', 'http://127.0.0.1:9'], { PETSTORE_API_KEY: 'verify-key-1' }),
    ];
    for (const { code, stdout, stderr } of outputs) {
      expect(code).not.toBe(0);
      expect(stdout + stderr).toMatch(/dot-env\.json.*[Ii]t is not JSON/);
      expect(stdout + stderr).not.toMatch(/PETSTORE|s3cr3t/);
    }
  });
});

describe('YAML --data within bounds', () => {
  it('refuses YAML nested 20,000 levels deep with a sentence, not "Maximum call stack size exceeded"', { timeout: 60_000 }, async () => {
    for (const deep of [`${'['.repeat(20_000)}${']'.repeat(20_000)}`, `${'- '.repeat(20_000)}x`]) {
      const result = await runCli('petstore-mock', ['--port', '0', '--data', await file('deep.yaml', deep)]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/--data .*deep\.yaml: it is not YAML: it nests deeper than 128 levels, at line 1, column \d+\. Fix the file/);
      expect(result.stderr).not.toMatch(/call stack/);
    }
  });

  it('refuses an alias inside the node it names, and an alias bomb, with a sentence', async () => {
    const recursive = await runCli('petstore-mock', [
      '--port',
      '0',
      '--data',
      await file('loop.yaml', '- &pet {id: 1, name: Rex, categoryId: 1, friends: [*pet]}\n'),
    ]);
    expect([recursive.code, recursive.stderr]).toEqual([2, expect.stringMatching(/it is not YAML: an alias \(\*name\) stands inside the node it names/)]);
    const levels = ['- &a {id: 1, name: Rex, categoryId: 1}'];
    for (let level = 1; level < 6; level++) levels.push(`- &${'abcdef'[level]} [${Array.from({ length: 10 }, () => `*${'abcdef'[level - 1]}`).join(', ')}]`);
    const bomb = await runCli('petstore-mock', ['--port', '0', '--data', await file('bomb.yaml', levels.join('\n'))]);
    expect([bomb.code, bomb.stderr]).toEqual([2, expect.stringMatching(/it is not YAML: its aliases \(\*name\) expand more than 100 times over/)]);
  });

  // The red team's files: 5 MB of YAML (1.2 million nodes) took 33-65 s and 0.9 GB to refuse as a spec, 32 s and 730 MB to read as pets.
  it('refuses YAML of more than 100,000 nodes as it meets the one past them, naming the flag and the cap: --data, --spec, and the verifier’s --spec', {
    timeout: 60_000,
  }, async () => {
    const many = await file('many-nodes.yaml', `openapi: 3.1.0\nx-big:\n${'  - {a: 1, b: hello}\n'.repeat(34_000)}`);
    const refusal =
      /: it holds more than 100,000 YAML nodes \(values, keys and lists; the one past them is at line \d+, column \d+\), .*write the data as JSON/;
    for (const [cli, flags] of [
      ['petstore-mock', ['--port', '0', '--data']],
      ['petstore-mock', ['--port', '0', '--spec']],
      ['petstore-verify', ['-u', 'http://127.0.0.1:1/v1', '-k', 'some-key-0123456789', '--spec']],
    ] as const) {
      const result = await runCli(cli, [...flags, many]);
      expect([result.code, result.stderr], `${cli} ${flags.at(-1)}`).toEqual([2, expect.stringMatching(refusal)]);
      expect(result.stderr).toContain(`${flags.at(-1)} `);
    }
  });

  // The red team's file: a JSON spec with an enum of 300,003 values, refused with the YAML cap and "write the data as JSON".
  it('reads a JSON --spec past 100,000 values as JSON, held to JSON bounds, not the YAML node cap: the mock and the verifier', {
    timeout: 60_000,
  }, async () => {
    const spec = structuredClone(openapi) as unknown as { components: { schemas: { PetStatus: { enum: string[] }; Pets: { maxItems?: number } } } };
    spec.components.schemas.PetStatus.enum.push(...Array.from({ length: 110_000 }, (_, index) => `s${index}`));
    // A page holds at most the 100 pets `limit` allows: a list of no bound, each status compared with 110,003 values, is refused (schema-cost.ts).
    spec.components.schemas.Pets.maxItems = 100;
    // No extension: JSON by its first character.
    const json = await file('wide-spec', ` \n${JSON.stringify(spec)}`);
    const mock = await startMockCli(['--port', '0', '--quiet', '--spec', json]);
    try {
      const pets = await fetch(`${mock.url}/pets?status=s109999`, { headers: { authorization: 'Bearer petstore-dev-key' } });
      expect(pets.status).toBe(200);
    } finally {
      await mock.stop();
    }
    const verifier = await runCli('petstore-verify', ['-u', 'http://127.0.0.1:1/v1', '-k', 'some-key-0123456789', '--suite', 'spec', '--spec', json]);
    expect(`${verifier.stdout}${verifier.stderr}`).toMatch(/Verifying against .*wide-spec/);
    expect(`${verifier.stdout}${verifier.stderr}`).not.toMatch(/YAML/);
    // A JSON file is JSON's to refuse: its error names JSON, and a file named otherwise is told how to be read as YAML.
    const broken = await runCli('petstore-mock', ['--port', '0', '--spec', await file('broken-spec', '{openapi: s3cr3t}')]);
    expect([broken.code, broken.stderr]).toEqual([
      2,
      expect.stringMatching(
        /broken-spec cannot be read: it is not JSON: it breaks at .* \(read as JSON, as it starts with \{ or \[; name it \.yaml to read it as YAML\)/,
      ),
    ]);
    // JSON.parse's own message quotes the text: a file given by mistake may hold a secret.
    expect(broken.stderr).not.toContain('s3cr3t');
  });

  it('refuses an empty path for the files it writes, naming the flag (exit 2), where --state was an exit 1 of the code API', async () => {
    for (const flags of [
      ['--state', ''],
      ['--proxy', 'http://127.0.0.1:1/v1', '--record', ''],
    ]) {
      const result = await runCli('petstore-mock', ['--port', '0', ...flags]);
      expect([result.code, result.stderr]).toEqual([
        2,
        expect.stringMatching(new RegExp(`option '${flags.at(-2)} <file>' argument '' is invalid\\. Expected the path of a file`)),
      ]);
    }
  });

  // The red team's file: 2.8 MB of `!!binary` took 760 MB and 3 s to refuse as "pets[0].name is required".
  it('refuses a tag outside the JSON schema (!!binary of 2.8 MB), naming it and its line', async () => {
    const binary = await runCli('petstore-mock', ['--port', '0', '--data', await file('binary.yaml', `- id: 1\n  name: !!binary ${'A'.repeat(2_796_200)}\n`)]);
    expect([binary.code, binary.stderr]).toEqual([
      2,
      expect.stringMatching(/--data .*binary\.yaml: .*the tag !!binary on the value at line 2, column 18 names a type JSON does not have/),
    ]);
  });
});

describe('a signal while a large --data file is read', () => {
  const files: Record<string, string> = {};
  beforeAll(async () => {
    // About 32 MB of YAML pets, within the size cap and the 100,000 nodes (9 a pet): about 2 s of CPU to read and
    // parse on a quiet 2-core machine, against about 0.25 s for the process to start.
    const pets: string[] = [];
    for (let id = 1; id <= 10_000; id++) pets.push(`- id: ${id}\n  name: ${`Pet number ${id} `.repeat(200)}\n  categoryId: 1\n  status: available\n`);
    files.YAML = await file('many.yaml', pets.join(''));
    // About 48 MB of JSON pets (700,000), parsed in one piece: the red team's file, which the mock went on to
    // listen with, exiting seconds after the signal (fifth attack, #7).
    const json: string[] = [];
    for (let id = 1; id < 700_000; id++) json.push(`{"id":${id},"name":"pet${id}","categoryId":${(id % 10) + 1},"status":"available"}`);
    files.JSON = await file('many.json', `[${json.join(',')}]`);
  });

  for (const format of ['YAML', 'JSON'] as const)
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      // Were the signal ignored, the mock would read on and listen, and this test would run out of time.
      it(`${signal} during a ${format} file stops the process before it listens, as it asks`, { timeout: 120_000 }, async () => {
        const child = spawn(process.execPath, ['bin/petstore-mock.js', '--port', '0', '--data', files[format] ?? ''], {
          cwd: root,
          env: { ...process.env, NO_COLOR: '1' },
        });
        let stdout = '';
        child.stdout.on('data', (chunk) => (stdout += chunk));
        const exited = once(child, 'exit');
        // Sent once the process has used more CPU than starting takes, and well before the parse is done: CPU time,
        // which a busy machine does not stretch, where a wall-clock delay let a fast machine finish the parse first.
        await expect.poll(() => cpuMicros(child.pid ?? 0) ?? 0, { timeout: 60_000, interval: 10 }).toBeGreaterThan(600_000);
        child.kill(signal);
        const [code, by] = await exited;
        expect(stdout).not.toContain('listening');
        expect({ code, by }).toEqual({ code: null, by: signal });
      });
    }
});

describe('a file written with a byte order mark', () => {
  it('loads as --data: the mark is read as no character (RFC 8259 8.1), never as "got \'ï»¿\'"', async () => {
    const path = await file('bom-pets.json', '\uFEFF[{"id":1,"name":"Rex","categoryId":1}]');
    const mock = await startMockCli(['--port', '0', '--data', path]);
    try {
      const pets = await (await fetch(`${mock.url}/pets`, { headers: { authorization: 'Bearer petstore-dev-key' } })).json();
      expect(pets).toEqual([{ id: 1, name: 'Rex', categoryId: 1 }]);
    } finally {
      await mock.stop();
    }
  });
});
