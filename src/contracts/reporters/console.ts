import { styleText } from 'node:util';
import { terminalText } from '../../terminal/terminal-text.js';
import type { CheckResult, Finding } from '../check.js';
import { toCurl } from '../http.js';
import type { VerificationReport } from '../runner.js';
import { countsText, failuresOf, followersOf, plural, verdictText } from './verdict.js';

type Style = Parameters<typeof styleText>[0];
export type Paint = (style: Style, text: string) => string;

/** Colours only for a terminal that wants them. */
export function painter(stream: NodeJS.WriteStream | { isTTY?: boolean }): Paint {
  const colour = stream.isTTY === true && process.env.NO_COLOR === undefined;
  return colour ? (style, text) => styleText(style, text) : (_, text) => text;
}

const MARKS: Readonly<Record<CheckResult['outcome'], [string, Style]>> = {
  pass: ['✓', 'green'],
  fail: ['✗', 'red'],
  skip: ['○', 'yellow'],
  error: ['!', 'magenta'],
};

/** The live line of one finished check, with its warnings below it. */
export function resultLine(result: CheckResult, paint: Paint): string {
  const [mark, style] = MARKS[result.outcome];
  const reason = result.reason ? paint('dim', ` (${terminalText(result.reason)})`) : '';
  const lines = [`${paint(style, mark)} ${result.id} ${paint('dim', `${Math.round(result.ms)} ms`)}${reason}`];
  for (const warning of result.warnings) lines.push(`  ${paint('yellow', '⚠')} ${terminalText(warning)}`);
  return lines.join('\n');
}

/** A finding's lines, each shown as it is: what the deployment sent is quoted in them, never acted on by the terminal. */
function findingLines(finding: Finding): string[] {
  const lines = [`   ${finding.message}`];
  if (finding.expected !== undefined) lines.push(`     expected: ${finding.expected}`);
  if (finding.actual !== undefined) lines.push(`     actual:   ${finding.actual}`);
  if (finding.schemaPath !== undefined) lines.push(`     schema:   ${finding.schemaPath}`);
  if (finding.status !== undefined) lines.push(`     status:   ${finding.status}`);
  if (finding.excerpt) lines.push(`     body:     ${finding.excerpt.replace(/\s*\n\s*/g, ' ')}`);
  if (finding.request) lines.push(`     request:  ${toCurl(finding.request)}`);
  if (finding.replay) lines.push('     replay:', ...finding.replay.map((request, i) => `       ${i + 1}. ${toCurl(request)}`));
  return lines.map(terminalText);
}

/** A failure, and under it the checks that failed only from its fault. */
function failureLines(result: CheckResult, index: number, report: VerificationReport): string[] {
  const lines = [`${index + 1}) ${result.id}: ${result.title}`];
  for (const finding of result.findings) lines.push(...findingLines(finding));
  const followers = followersOf(report, result);
  if (followers.length > 0) {
    lines.push(`   ${plural(followers.length, 'other check')} failed from this fault alone:`);
    for (const follower of followers) lines.push(`     - ${follower.id}: ${terminalText(follower.findings[0]?.message ?? follower.title)}`);
  }
  return lines;
}

/** A cause of retries as the line says it: a status by its number, 429 and a dropped connection in words. */
function retryCause(cause: string): string {
  return cause === '429' ? '429 Too Many Requests' : cause === 'network' ? 'a dropped connection' : cause;
}

/** The run's one line about retries: how many, after what, and how long Retry-After made it wait. */
function retryLine(report: VerificationReport): string | undefined {
  const total = Object.values(report.retries.byCause).reduce((sum, n) => sum + n, 0);
  if (total === 0) return undefined;
  const causes = Object.entries(report.retries.byCause).map(([cause, n]) => `${n} after ${retryCause(cause)}`);
  const waited = report.retries.waitedMs > 0 ? `, waiting ${(report.retries.waitedMs / 1000).toFixed(1)} s in all as Retry-After asked` : '';
  return `Retried ${plural(total, 'request')}: ${causes.join(', ')}${waited} (${total > report.retried.length ? `the first ${report.retried.length}` : 'each'} listed in the JSON report's "retried").`;
}

/** The end of a console run: every fault with its evidence and the checks that follow from it, then the totals and the verdict. */
export function summary(report: VerificationReport, paint: Paint): string {
  if (report.fatal) return `${paint('magenta', 'petstore-verify could not verify the deployment:')} ${terminalText(report.fatal)}\n`;
  const lines: string[] = [];
  const failed = failuresOf(report);
  if (failed.length > 0) {
    lines.push('', paint('bold', 'Failures'));
    failed.forEach((result, i) => {
      lines.push(...failureLines(result, i, report));
    });
  }
  if (report.advice.length > 0) {
    lines.push('', paint('bold', 'Advice (the spec describes it, the interface does not ask for it: no failure)'));
    for (const advice of report.advice) lines.push(`  ${paint('yellow', '⚠')} ${terminalText(advice)}`);
  }
  lines.push(
    '',
    countsText(report),
    paint(
      'dim',
      `${report.baseUrl} · run ${report.runId} · ${plural(report.requests, 'request')} · ${plural(report.posts, 'write')}${report.readOnly ? ' · read-only' : ''}`,
    ),
  );
  const retried = retryLine(report);
  if (retried) lines.push(paint('yellow', retried));
  const colour = report.exitCode === 0 ? 'green' : report.exitCode === 1 ? 'red' : 'magenta';
  lines.push(paint(colour, report.exitCode > 1 ? 'Some checks could not verify the deployment (see ! above).' : verdictText(report)));
  return `${lines.join('\n')}\n`;
}
