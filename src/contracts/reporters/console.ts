import { styleText } from 'node:util';
import type { CheckResult, Finding } from '../check.js';
import { toCurl } from '../http.js';
import type { VerificationReport } from '../runner.js';

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
  const reason = result.reason ? paint('dim', ` (${result.reason})`) : '';
  const lines = [`${paint(style, mark)} ${result.id} ${paint('dim', `${Math.round(result.ms)} ms`)}${reason}`];
  for (const warning of result.warnings) lines.push(`  ${paint('yellow', '⚠')} ${warning}`);
  return lines.join('\n');
}

function findingLines(finding: Finding): string[] {
  const lines = [`   ${finding.message}`];
  if (finding.expected !== undefined) lines.push(`     expected: ${finding.expected}`);
  if (finding.actual !== undefined) lines.push(`     actual:   ${finding.actual}`);
  if (finding.schemaPath !== undefined) lines.push(`     schema:   ${finding.schemaPath}`);
  if (finding.status !== undefined) lines.push(`     status:   ${finding.status}`);
  if (finding.excerpt) lines.push(`     body:     ${finding.excerpt.replace(/\s*\n\s*/g, ' ')}`);
  if (finding.request) lines.push(`     request:  ${toCurl(finding.request)}`);
  if (finding.replay) lines.push('     replay:', ...finding.replay.map((request, i) => `       ${i + 1}. ${toCurl(request)}`));
  return lines;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The end of a console run: every failure with its evidence, then the totals and the verdict. */
export function summary(report: VerificationReport, paint: Paint): string {
  if (report.fatal) return `${paint('magenta', 'petstore-verify could not verify the deployment:')} ${report.fatal}\n`;
  const lines: string[] = [];
  const failed = report.results.filter((result) => result.outcome === 'fail');
  if (failed.length > 0) {
    lines.push('', paint('bold', 'Failures'));
    failed.forEach((result, i) => {
      lines.push(`${i + 1}) ${result.id}: ${result.title}`);
      for (const finding of result.findings) lines.push(...findingLines(finding));
    });
  }
  const { passed, failed: nFailed, skipped, errors, warnings } = report.counts;
  lines.push(
    '',
    `${plural(passed, 'check')} passed, ${nFailed} failed, ${skipped} skipped, ${plural(errors, 'error')}, ${plural(warnings, 'warning')} in ${(report.ms / 1000).toFixed(1)} s`,
    paint(
      'dim',
      `${report.baseUrl} · run ${report.runId} · ${plural(report.requests, 'request')} · ${plural(report.posts, 'POST')}${report.readOnly ? ' · read-only' : ''}`,
    ),
  );
  if (report.retried.length > 0)
    lines.push(
      paint(
        'yellow',
        `Retried (gateway errors, dropped connections, 429 Too Many Requests): ${report.retried.length > 10 ? `${report.retried.slice(0, 10).join('; ')}; and ${report.retried.length - 10} more` : report.retried.join('; ')}`,
      ),
    );
  const verdict =
    report.exitCode === 0
      ? paint('green', 'The deployment keeps the contract.')
      : report.exitCode === 1
        ? paint('red', `The deployment breaks the contract: ${plural(nFailed, 'check')} failed.`)
        : paint('magenta', 'Some checks could not verify the deployment (see ! above).');
  lines.push(verdict);
  return `${lines.join('\n')}\n`;
}
