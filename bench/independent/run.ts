/**
 * Measures a petstore-verify build on the independent deployments of catalog.ts: starts each one, correct
 * and with each of its faults, on a free port of 127.0.0.1, runs the verifier against it with a deadline,
 * stops it, and prints a table: for a correct deployment, a false alarm when the verifier exits non-zero;
 * for a faulty one, detected (exit 1 and a check failed with a finding its correct sibling's run does not
 * have), not told apart (exit 1, but only with the correct sibling's false alarms), missed (exit 0) or
 * could not verify (exit 2, or only checks that could not verify besides the sibling's false alarms). Each deployment starts with a catalogue of `--seed-pets` pets (120: more
 * than the largest page), a third of each status.
 *
 *   npx tsx bench/independent/run.ts [--verifier bin/petstore-verify.js] [--only REGEX] [--out FILE] [--seed-pets 120] [-- verifier flags]
 *   npx tsx bench/independent/run.ts --list   # the README's tables of faults, from catalog.ts
 *
 * `--only` picks the runs whose `deployment:fault` matches (`correct` for a deployment without a fault):
 * `--only fastapi`, `--only :correct`, `--only '^go:ms-ids$'`.
 *
 * Minutes, not seconds (one verifier run per deployment, one at a time): never in `npm test`.
 */
import { type ChildProcess, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { spawn } from '../../test/support/children.js';
import { DEPLOYMENTS, type Deployment, folderOf, type Launch } from './catalog.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    verifier: { type: 'string', default: 'bin/petstore-verify.js' },
    only: { type: 'string' },
    out: { type: 'string' },
    'run-timeout': { type: 'string', default: '180000' },
    'seed-pets': { type: 'string', default: '120' },
    list: { type: 'boolean', default: false },
  },
});
const verifier = resolve(values.verifier);
const runTimeoutMs = Number(values['run-timeout']);
const STARTUP_MS = 20_000;
const work = mkdtempSync(join(tmpdir(), 'petstore-independent-'));
const live = new Set<ChildProcess>();

type Verdict = 'quiet' | 'FALSE ALARM' | 'detected' | 'not told apart' | 'missed' | 'could not verify' | 'timed out' | 'did not start';
type Row = {
  deployment: string;
  fault: string | undefined;
  verdict: Verdict;
  exit: number | null;
  /** The failed checks (for a faulty deployment, those with a finding its correct sibling's run has not). */
  failed: string[];
  findings: Set<string>;
  ms: number;
  note: string;
};

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

type Check = { id: string; outcome: string; follows?: string; findings: { message: string }[] };

function readChecks(report: string): Check[] {
  try {
    const failed = (JSON.parse(readFileSync(report, 'utf8')) as { results: Check[] }).results;
    return failed.filter((check) => check.outcome !== 'pass' && check.outcome !== 'skip' && check.outcome !== 'skipped');
  } catch {
    return [];
  }
}

/** A finding as two runs can compare it: its check and its message with every token holding a digit (ids, ports, counts) masked. */
const signatures = (check: Check): string[] =>
  check.findings.length === 0 ? [`${check.id} ${check.outcome}`] : check.findings.map((finding) => `${check.id} ${finding.message.replace(/\S*\d\S*/g, '#')}`);

const checkName = (check: Check) => `${check.id}${check.outcome === 'fail' ? '' : ` (${check.outcome})`}${check.follows ? ` < ${check.follows}` : ''}`;

/**
 * A faulty run is detected when a check failed with a finding the correct sibling's run has not; when its
 * only such findings are checks that could not verify (a dropped connection, a crashed deployment), it
 * could not verify, whatever the exit code the sibling's false alarms give it.
 */
function verdictOf(fault: string | undefined, exit: number | null, telling: readonly Check[]): Verdict {
  if (exit === null) return 'timed out';
  if (fault === undefined) return exit === 0 ? 'quiet' : 'FALSE ALARM';
  if (exit === 1 && telling.some((check) => check.outcome === 'fail')) return 'detected';
  if (exit === 2 || telling.length > 0) return 'could not verify';
  return exit === 0 ? 'missed' : 'not told apart';
}

async function measure(deployment: Deployment, fault: string | undefined, built: string, correct: Row | undefined): Promise<Row> {
  const label = `${deployment.name}${fault ? `:${fault}` : ''}`;
  const dir = join(work, label.replace(/[^\w.-]/g, '_'));
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const key = `independent-${randomBytes(8).toString('hex')}`;
  const url = `http://127.0.0.1:${port}/v1`;
  const env: Record<string, string> = { PORT: String(port), API_KEY: key, SEED_PETS: values['seed-pets'], ...(fault ? { FAULT: fault } : {}) };
  const server = start(deployment.launch(port, fault, built), folderOf(deployment), env, join(dir, 'deployment.log'));
  const started = performance.now();
  try {
    if (!(await ready(url, server)))
      return {
        deployment: deployment.name,
        fault,
        verdict: 'did not start',
        exit: null,
        failed: [],
        findings: new Set(),
        ms: 0,
        note: `see ${join(dir, 'deployment.log')}`,
      };
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
    const checks = readChecks(report);
    const findings = new Set(checks.flatMap(signatures));
    const known = correct?.findings ?? new Set<string>();
    const telling = fault === undefined ? checks : checks.filter((check) => signatures(check).some((s) => !known.has(s)));
    return {
      deployment: deployment.name,
      fault,
      verdict: verdictOf(fault, exit, telling),
      exit,
      failed: telling.map(checkName),
      findings,
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

/** Which verifier ran: its checkout's HEAD, and the last commit that changed what it is built from. */
function verifierCommit(): string {
  const git = (...args: string[]) => spawnSync('git', ['-C', dirname(verifier), ...args], { encoding: 'utf8' }).stdout.trim();
  const version = spawnSync(process.execPath, [verifier, '--version'], { encoding: 'utf8' }).stdout.trim();
  const head = git('log', '-1', '--format=%h');
  if (!head) return `petstore-verify ${version || '?'}, not in a git checkout`;
  const sources = git('log', '-1', '--format=%h (%s)', '--', '../src', '../spec', '../bin');
  return `HEAD ${head}, its sources (src, spec, bin) last changed by ${sources}; petstore-verify ${version || '?'}`;
}

const cell = (text: string) => text.replaceAll('|', '\\|');

function markdown(rows: readonly Row[], skipped: readonly string[]): string {
  const correct = rows.filter((row) => row.fault === undefined);
  const faulty = rows.filter((row) => row.fault !== undefined);
  const count = (list: readonly Row[], verdict: Verdict) => list.filter((row) => row.verdict === verdict).length;
  const pct = (n: number, of: number) => (of === 0 ? '-' : `${((100 * n) / of).toFixed(0)}%`);
  const detected = count(faulty, 'detected');
  const alarms = correct.filter((row) => row.verdict !== 'quiet').length;
  const columns: Verdict[] = ['detected', 'not told apart', 'missed', 'could not verify'];
  const others = faulty.length - columns.reduce((sum, verdict) => sum + count(faulty, verdict), 0);
  const lines = [
    `Verifier: \`${values.verifier}\` at ${verifierCommit()}; its flags: \`${['--reporter json', ...positionals].join(' ')}\`; ${values['seed-pets']} pets in each catalogue at the start. Run on ${new Date().toISOString().slice(0, 10)}.`,
    '',
    `**Faults detected: ${detected} of ${faulty.length} (${pct(detected, faulty.length)})**; ${columns
      .slice(1)
      .map((verdict) => `${verdict} ${count(faulty, verdict)}`)
      .join(', ')}${others > 0 ? `, timed out or did not start ${others}` : ''}. **False alarms: ${alarms} of ${correct.length} correct deployments.**`,
    '',
    `| deployment | faults | ${columns.join(' | ')} | the correct one |`,
    `| --- | --- | ${columns.map(() => '---').join(' | ')} | --- |`,
    ...DEPLOYMENTS.filter((d) => rows.some((row) => row.deployment === d.name)).map((d) => {
      const mine = faulty.filter((row) => row.deployment === d.name);
      const own = correct.find((row) => row.deployment === d.name);
      return `| ${d.name} | ${mine.length} | ${columns.map((verdict) => count(mine, verdict)).join(' | ')} | ${own?.verdict ?? '-'} |`;
    }),
    '',
    'Every run. Failed checks: for a correct deployment every one; for a faulty one those with a finding the correct',
    "sibling's run does not have (`a < b`: check a failed only from the fault check b met).",
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

if (values.list) {
  // The README's tables of deployments and faults, from the catalogue itself.
  for (const d of DEPLOYMENTS)
    process.stdout.write(
      `\n### ${d.name}: ${d.stack} (\`${d.folder}/\`)\n\n| fault | how it breaks the interface |\n| --- | --- |\n${Object.entries(d.faults)
        .map(([fault, why]) => `| \`${fault}\` | ${cell(why)} |`)
        .join('\n')}\n`,
    );
  process.exit(0);
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
    const faults = Object.keys(deployment.faults).filter((fault) => only.test(`${deployment.name}:${fault}`));
    // A faulty run is judged against its correct sibling's findings, so the sibling always runs first.
    const cases = faults.length > 0 || only.test(`${deployment.name}:correct`) ? [undefined, ...faults] : [];
    if (cases.length === 0) continue;
    const missing = prerequisites(deployment);
    if (missing) {
      skipped.push(`${deployment.name}: ${missing}`);
      continue;
    }
    const built = build(deployment);
    let correct: Row | undefined;
    for (const fault of cases) {
      const row = await measure(deployment, fault, built, correct);
      correct ??= row;
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
