/**
 * The run as Markdown, for a CI job's summary page (`$GITHUB_STEP_SUMMARY`): the verdict, the
 * failures with their curl lines, and the spec coverage. What the deployment sent is text to
 * show, never markup: each cell is escaped, each curl line is in a fence longer than any run of
 * backticks in it.
 */
import { toCurl } from '../http.js';
import type { VerificationReport } from '../runner.js';
import { coverageRows, totalsText } from './coverage.js';
import { countsText, failuresOf, followersOf, verdictText } from './verdict.js';

/** The most failures the summary shows: a summary page is for the first look; the other reports hold them all. */
const MAX_FAILURES = 20;

/** Text that Markdown shows as it is: no tag, no link, no emphasis, no table cell ends early, on one line. */
export function markdownText(text: string): string {
  return text
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_{}[\]()#+\-.!|~:]/g, '\\$&');
}

/** A fenced code block that no backtick run in `code` can close. */
export function fenced(code: string): string {
  const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map(([run]) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}sh\n${code}\n${fence}`;
}

function failureLines(report: VerificationReport): string[] {
  const failed = failuresOf(report);
  if (failed.length === 0) return [];
  const lines = ['', '### Failures', ''];
  for (const result of failed.slice(0, MAX_FAILURES)) {
    lines.push(`- **${markdownText(result.id)}**: ${markdownText(result.title)}`);
    for (const finding of result.findings) {
      lines.push(`  - ${markdownText(finding.message)}`);
      for (const [name, value] of [
        ['expected', finding.expected],
        ['actual', finding.actual],
        ['body', finding.excerpt],
      ])
        if (value) lines.push(`    - ${name}: ${markdownText(value)}`);
      if (finding.request)
        lines.push(
          '',
          ...fenced(toCurl(finding.request))
            .split('\n')
            .map((line) => `    ${line}`),
          '',
        );
    }
    const followers = followersOf(report, result);
    if (followers.length > 0) lines.push(`  - failed from this fault alone: ${followers.map((follower) => markdownText(follower.id)).join(', ')}`);
  }
  if (failed.length > MAX_FAILURES) lines.push('', `…and ${failed.length - MAX_FAILURES} more failures: see the json, junit or html report.`);
  return lines;
}

function coverageLines(report: VerificationReport): string[] {
  const { coverage } = report;
  if (coverage === undefined) return [];
  const lines = [
    '',
    '### Spec coverage',
    '',
    markdownText(totalsText(coverage)),
    '',
    '✓ exercised · · not exercised · ⚠ answered, though the spec does not document it',
  ];
  for (const operation of coverage.operations) {
    lines.push(
      '',
      `#### ${markdownText(`${operation.operationId}: ${operation.method} ${operation.path}`)}`,
      '',
      '| | what | answered |',
      '| --- | --- | --- |',
    );
    for (const row of coverageRows(operation))
      lines.push(`| ${row.undocumented ? '⚠' : row.exercised ? '✓' : '·'} | ${markdownText(row.what)} | ${markdownText(row.answered)} |`);
  }
  if (coverage.unmatched.requests > 0)
    lines.push('', markdownText(`${coverage.unmatched.requests} requests matched no operation of the spec (the probes of other spellings and methods).`));
  return lines;
}

/** The run as a GitHub step summary. */
export function markdownSummary(report: VerificationReport): string {
  const lines = [
    '## petstore-verify',
    '',
    `**${markdownText(verdictText(report))}**`,
    '',
    markdownText(`${countsText(report)} · ${report.baseUrl} · run ${report.runId}${report.readOnly ? ' · read-only' : ''}`),
    ...failureLines(report),
    ...coverageLines(report),
  ];
  return `${lines.join('\n')}\n`;
}
