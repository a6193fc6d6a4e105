/**
 * Measures a petstore-verify build on the independent deployments of catalog.ts: starts each one, correct
 * and with each of its faults, on a free port of 127.0.0.1, runs the verifier against it with a deadline,
 * stops it, and prints a table: for a correct deployment, a false alarm when the verifier exits non-zero;
 * for a faulty one, detected (exit 1), missed (exit 0) or could not verify (exit 2).
 *
 *   npx tsx bench/independent/run.ts [--verifier bin/petstore-verify.js] [--only REGEX] [--out FILE] [-- verifier flags]
 *
 * `--only` picks the runs whose `deployment:fault` matches (`correct` for a deployment without a fault):
 * `--only fastapi`, `--only :correct`, `--only '^go:ms-ids$'`.
 *
 * Minutes, not seconds (one verifier run per deployment, one at a time): never in `npm test`.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEPLOYMENTS, type Deployment, folderOf, type Launch } from './catalog.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    verifier: { type: 'string', default: 'bin/petstore-verify.js' },
    only: { type: 'string' },
    out: { type: 'string' },
    'run-timeout': { type: 'string', default: '180000' },
  },
});
const verifier = resolve(values.verifier);
const runTimeoutMs = Number(values['run-timeout']);
const STARTUP_MS = 20_000;
const work = mkdtempSync(join(tmpdir(), 'petstore-independent-'));
const live = new Set<ChildProcess>();

type Verdict = 'quiet' | 'FALSE ALARM' | 'detected' | 'missed' | 'could not verify' | 'timed out' | 'did not start';
type Row = { deployment: string; fault: string | undefined; verdict: Verdict; exit: number | null; failed: string[]; ms: number; note: string };

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

/** Starts a command in its own process group, so that stop() ends it and every child it forked (Puma's workers). */
function start({ command, args }: Launch, cwd: string, env: Record<string, string>, log: string): ChildProcess {
  const out = openSync(log, 'a');
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', out, out] });
  live.add(child);
  child.on('exit', () => live.delete(child));
  return child;
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  const pid = child.pid;
  return new Promise((done) => {
    const kill = setTimeout(() => signal(pid, 'SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(kill);
      signal(pid, 'SIGKILL'); // whatever of its group outlived it
      done();
    });
    signal(pid, 'SIGTERM');
  });
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(-pid, name);
  } catch {
    // the group is gone already
  }
}

/** Waits until the deployment answers HTTP at all (a 401 will do); false when it exits or the time is up. */
async function ready(url: string, child: ChildProcess): Promise<boolean> {
  const until = Date.now() + STARTUP_MS;
  while (Date.now() < until && child.exitCode === null) {
    try {
      await fetch(`${url}/pets`, { signal: AbortSignal.timeout(1000) });
      return true;
    } catch {
      await new Promise((done) => setTimeout(done, 100));
    }
  }
  return false;
}

/** The ids of the checks the JSON report marks failed, the ones that follow another's fault after a `<`. */
function failedChecks(report: string): string[] {
  try {
    const { results } = JSON.parse(readFileSync(report, 'utf8')) as { results: { id: string; outcome: string; follows?: string }[] };
    return results
      .filter((result) => result.outcome !== 'pass' && result.outcome !== 'skip' && result.outcome !== 'skipped')
      .map((result) => `${result.id}${result.outcome === 'fail' ? '' : ` (${result.outcome})`}${result.follows ? ` < ${result.follows}` : ''}`);
  } catch {
    return [];
  }
}

function verdictOf(fault: string | undefined, exit: number | null): Verdict {
  if (exit === null) return 'timed out';
  if (fault === undefined) return exit === 0 ? 'quiet' : 'FALSE ALARM';
  return exit === 1 ? 'detected' : exit === 0 ? 'missed' : 'could not verify';
}

async function measure(deployment: Deployment, fault: string | undefined, built: string): Promise<Row> {
  const label = `${deployment.name}${fault ? `:${fault}` : ''}`;
  const dir = join(work, label.replace(/[^\w.-]/g, '_'));
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const key = `independent-${randomBytes(8).toString('hex')}`;
  const url = `http://127.0.0.1:${port}/v1`;
  const env: Record<string, string> = { PORT: String(port), API_KEY: key, ...(fault ? { FAULT: fault } : {}) };
  const server = start(deployment.launch(port, fault, built), folderOf(deployment), env, join(dir, 'deployment.log'));
  const started = performance.now();
  try {
    if (!(await ready(url, server)))
      return { deployment: deployment.name, fault, verdict: 'did not start', exit: null, failed: [], ms: 0, note: `see ${join(dir, 'deployment.log')}` };
    const report = join(dir, 'report.json');
    const args = [verifier, '--base-url', url, '--api-key', key, '--reporter', 'json', '--output', report, ...positionals];
    const run = start({ command: process.execPath, args }, process.cwd(), {}, join(dir, 'verifier.log'));
    const exit = await new Promise<number | null>((done) => {
      const timer = setTimeout(() => void stop(run).then(() => done(null)), runTimeoutMs);
      run.once('exit', (code) => {
        clearTimeout(timer);
        done(code);
      });
    });
    const alive = server.exitCode === null && server.signalCode === null;
    return {
      deployment: deployment.name,
      fault,
      verdict: verdictOf(fault, exit),
      exit,
      failed: failedChecks(report),
      ms: performance.now() - started,
      note: alive ? '' : `the deployment exited (${server.exitCode ?? server.signalCode})`,
    };
  } finally {
    await stop(server);
  }
}

function prerequisites(deployment: Deployment): string | undefined {
  const { command, args, packages } = deployment.needs;
  const probe = spawnSync(command, args, { cwd: folderOf(deployment), encoding: 'utf8' });
  return probe.status === 0 ? undefined : `needs ${command} with ${args.join(' ')} (apt-get install ${packages})`;
}

function build(deployment: Deployment): string {
  if (!deployment.build) return '';
  const out = join(work, `${deployment.name}-server`);
  const { command, args } = deployment.build(out);
  const made = spawnSync(command, args, { cwd: folderOf(deployment), encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`${deployment.name}: ${command} ${args.join(' ')} failed:\n${made.stderr}`);
  return out;
}

function verifierCommit(): string {
  const git = (...args: string[]) => spawnSync('git', ['-C', dirname(verifier), ...args], { encoding: 'utf8' }).stdout.trim();
  const version = spawnSync(process.execPath, [verifier, '--version'], { encoding: 'utf8' }).stdout.trim();
  return `${git('log', '-1', '--format=%h (%s)') || 'not in a git checkout'}, petstore-verify ${version || '?'}`;
}

const cell = (text: string) => text.replaceAll('|', '\\|');

function markdown(rows: readonly Row[], skipped: readonly string[]): string {
  const correct = rows.filter((row) => row.fault === undefined);
  const faulty = rows.filter((row) => row.fault !== undefined);
  const count = (list: readonly Row[], verdict: Verdict) => list.filter((row) => row.verdict === verdict).length;
  const pct = (n: number, of: number) => (of === 0 ? '-' : `${((100 * n) / of).toFixed(0)}%`);
  const detected = count(faulty, 'detected');
  const alarms = correct.filter((row) => row.verdict !== 'quiet').length;
  const lines = [
    `Verifier: \`${values.verifier}\` at ${verifierCommit()}; flags: \`${['--reporter json', ...positionals].join(' ')}\`. Run on ${new Date().toISOString().slice(0, 10)}.`,
    '',
    `**Faults detected: ${detected} of ${faulty.length} (${pct(detected, faulty.length)})**; missed ${count(faulty, 'missed')}, could not verify ${count(faulty, 'could not verify')}, other ${faulty.length - detected - count(faulty, 'missed') - count(faulty, 'could not verify')}. **False alarms: ${alarms} of ${correct.length} correct deployments.**`,
    '',
    '| deployment | faults | detected | missed | could not verify | correct one |',
    '| --- | --- | --- | --- | --- | --- |',
    ...DEPLOYMENTS.filter((d) => rows.some((row) => row.deployment === d.name)).map((d) => {
      const mine = faulty.filter((row) => row.deployment === d.name);
      const own = correct.find((row) => row.deployment === d.name);
      return `| ${d.name} | ${mine.length} | ${count(mine, 'detected')} | ${count(mine, 'missed')} | ${count(mine, 'could not verify')} | ${own?.verdict ?? '-'} |`;
    }),
    '',
    'Every run (`a < b`: check a failed only from the fault check b met):',
    '',
    '| deployment | fault | verdict | exit | failed checks | s |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (row) =>
        `| ${row.deployment} | ${row.fault ?? '(correct)'} | ${row.verdict} | ${row.exit ?? '-'} | ${cell([...row.failed, row.note].filter(Boolean).join('; ') || '-')} | ${(row.ms / 1000).toFixed(1)} |`,
    ),
  ];
  if (skipped.length > 0) lines.push('', 'Not run:', '', ...skipped.map((why) => `- ${why}`));
  return `${lines.join('\n')}\n`;
}

process.on('SIGINT', () => {
  for (const child of live) if (child.pid !== undefined) signal(child.pid, 'SIGKILL');
  process.exit(130);
});

const rows: Row[] = [];
const skipped: string[] = [];
try {
  for (const deployment of DEPLOYMENTS) {
    const only = new RegExp(values.only ?? '');
    const cases = [undefined, ...Object.keys(deployment.faults)].filter((fault) => only.test(`${deployment.name}:${fault ?? 'correct'}`));
    if (cases.length === 0) continue;
    const missing = prerequisites(deployment);
    if (missing) {
      skipped.push(`${deployment.name}: ${missing}`);
      continue;
    }
    const built = build(deployment);
    for (const fault of cases) {
      const row = await measure(deployment, fault, built);
      rows.push(row);
      process.stdout.write(`${row.deployment}${fault ? `:${fault}` : ''}: ${row.verdict} (exit ${row.exit ?? '-'}) ${row.failed.join(', ')}\n`);
    }
  }
} finally {
  await Promise.all([...live].map(stop));
}
const table = markdown(rows, skipped);
process.stdout.write(`\n${table}`);
if (values.out) writeFileSync(values.out, table);
process.stdout.write(`logs and reports of every run: ${work}\n`);
