/**
 * The run of `petstore-verify` once its flags are found valid: the suites, the live progress, and the
 * reports and files it writes. Loaded by the CLI only then, so that `--version`, `--help` and a usage
 * error answer without loading the suites, the spec's validators and the reporters.
 */
import { randomInt } from 'node:crypto';
import { appendFile, writeFile } from 'node:fs/promises';
import { codeOf, messageOf, UsageError } from '../errors.js';
import { definedFields } from '../json/defined-fields.js';
import { profileDocument } from '../profile/profile.js';
import type { ObservedExchange } from './http.js';
import { profileOfRun, unlearnedErrorCodes } from './learn-profile.js';
import { painter, resultLine, summary } from './reporters/console.js';
import { HAR_BODY_BYTES, HAR_BYTES, HAR_ENTRIES, HarExchanges, harOf } from './reporters/har.js';
import { htmlReport } from './reporters/html.js';
import { junitReport } from './reporters/junit.js';
import { markdownSummary } from './reporters/markdown.js';
import { DEFAULT_FUZZ_RUNS } from './run-bounds.js';
import { type VerificationReport, verify } from './runner.js';
import { verifierRedactor } from './verifier-redactor.js';
import { type Flags, type Plan, packageVersion, type Reporter } from './verify-cli.js';

function render(report: VerificationReport, reporter: Reporter): string {
  if (reporter === 'junit') return junitReport(report);
  if (reporter === 'html') return htmlReport(report);
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** The fuzz suite's seed and runs when the run fuzzes: the seed is chosen here when not given, so that it is printed before the first request. */
function fuzzPlan(flags: Flags, plan: Plan): { seed: number; runs: number } | undefined {
  if (plan.suite !== 'fuzz' && flags.fuzzRuns === undefined) return undefined;
  return { seed: flags.seed ?? randomInt(2 ** 31), runs: flags.fuzzRuns ?? DEFAULT_FUZZ_RUNS };
}

/** Runs the verification, writing a line per check and the summary to `progress`. */
async function runWithProgress(flags: Flags, plan: Plan, progress: NodeJS.WriteStream, exchanges: HarExchanges): Promise<VerificationReport> {
  const paint = painter(progress);
  const fuzz = fuzzPlan(flags, plan);
  // A path is the user's text, and may be named after the key (every other line of a run hides it too).
  if (flags.spec !== undefined)
    progress.write(`Verifying against ${verifierRedactor(plan.apiKey).text(flags.spec)} (${plan.spec?.doc.info.title ?? 'its spec'})\n`);
  if (fuzz) progress.write(`Fuzz suite: ${fuzz.runs} sequences from seed ${fuzz.seed} (run again with --seed ${fuzz.seed} to replay them)\n`);
  const report = await verify({
    ...plan,
    readOnly: flags.readOnly === true,
    ...definedFields({ categoryId: flags.categoryId, rps: flags.rps }),
    timeoutMs: flags.timeout,
    concurrency: flags.concurrency,
    // The deadline is the whole run's, counted from the process's start: Node's own start and the
    // spec's compilation are part of what CI waits for.
    deadlineMs: Math.max(1, Math.round(flags.deadline - performance.now())),
    pacts: flags.pact,
    ...(fuzz ? { fuzz } : {}),
    warnings: flags.strict ? 'all' : (flags.warnings ?? 'notices'),
    onResult: (result) => progress.write(`${resultLine(result, paint)}\n`),
    // Only a HAR needs the responses' bodies kept.
    ...(flags.har === undefined ? {} : { observe: (exchange: ObservedExchange) => exchanges.observe(exchange) }),
  });
  progress.write(summary(report, paint));
  return report;
}

/**
 * Writes a file a flag names. One that cannot be written (a full disk, a device that refuses it) is a
 * run whose results did not reach where they were asked for: exit 2 with a sentence, never a crash
 * and exit 1, which says the contract is broken.
 */
async function writeOutput(flag: string, path: string, text: string): Promise<void> {
  await writeFile(path, text).catch((error: unknown) => {
    throw new UsageError(
      `${flag} ${path}: could not write it (${codeOf(error) ?? messageOf(error)}); the results are above. Give a writable file with room for it.`,
    );
  });
}

/** Writes the profile (--write-profile) and the json or junit document (to --output, else stdout). */
async function writeReports(flags: Flags, report: VerificationReport, progress: NodeJS.WriteStream): Promise<void> {
  if (flags.writeProfile && report.fatal === undefined) {
    await writeOutput('--write-profile', flags.writeProfile, `${JSON.stringify(profileDocument(profileOfRun(report.results)), null, 2)}\n`);
    for (const note of unlearnedErrorCodes(report.results)) progress.write(`Note: ${note}\n`);
    progress.write(`Profile of the deployment written to ${flags.writeProfile}; run petstore-mock --profile ${flags.writeProfile} to mimic it.\n`);
  }
  if (flags.reporter === 'console') return;
  const document = render(report, flags.reporter);
  if (flags.output) await writeOutput('--output', flags.output, document);
  else process.stdout.write(document);
}

/**
 * Writes the HAR (--har), the coverage (--coverage) and, in a GitHub Actions job, the step summary
 * (`$GITHUB_STEP_SUMMARY`). A summary that cannot be written is said on stderr: it does not change the verdict.
 */
async function writeRunFiles(flags: Flags, report: VerificationReport, kept: HarExchanges, progress: NodeJS.WriteStream): Promise<void> {
  if (flags.har) {
    const run = { version: packageVersion(), runId: report.runId, baseUrl: report.baseUrl, startedAt: report.startedAt, dropped: kept.dropped };
    await writeOutput('--har', flags.har, `${JSON.stringify(harOf(kept.exchanges, run), null, 2)}\n`);
    progress.write(`HAR of the run's ${kept.exchanges.length} responses written to ${flags.har}; open it in a browser's network panel (Import HAR).\n`);
    if (kept.leftOut > 0)
      progress.write(
        `The bodies of its last ${kept.leftOut} are left out: a HAR holds at most ${HAR_BODY_BYTES} bytes of bodies, and the run's first ones filled it.\n`,
      );
    if (kept.dropped > 0)
      progress.write(
        `The run's last ${kept.dropped} responses are not in it: a HAR holds at most ${HAR_ENTRIES} responses and ${HAR_BYTES} bytes, and the run's first ones filled it.\n`,
      );
  }
  if (flags.coverage) await writeOutput('--coverage', flags.coverage, `${JSON.stringify(report.coverage, null, 2)}\n`);
  const stepSummary = process.env.GITHUB_STEP_SUMMARY;
  if (stepSummary) {
    await appendFile(stepSummary, markdownSummary(report)).catch((error: unknown) =>
      process.stderr.write(`petstore-verify: could not add the run to the step summary ${stepSummary}: ${messageOf(error)}\n`),
    );
  }
}

/** Runs the verification the flags plan, writes its reports and files, and resolves to the exit code. */
export async function runPlanned(flags: Flags, plan: Plan): Promise<number> {
  // The document goes to stdout unless it goes to a file; progress goes wherever it does not.
  const progress = flags.reporter !== 'console' && !flags.output ? process.stderr : process.stdout;
  const exchanges = new HarExchanges();
  const report = await runWithProgress(flags, plan, progress, exchanges);
  await writeReports(flags, report, progress);
  await writeRunFiles(flags, report, exchanges, progress);
  return report.exitCode;
}
