/**
 * The run as Markdown, for a CI job's summary page (`$GITHUB_STEP_SUMMARY`): the verdict, the
 * failures with their curl lines, and the spec coverage. What the deployment sent is text to
 * show, never markup: each cell is escaped, each curl line is in a fence longer than any run of
 * backticks in it.
 */
import { toCurl } from '../http.js';
import type { VerificationReport } from '../runner.js';
import { coverageRows, totalsText } from './coverage-reporter.js';
import { countsText, failuresOf, followersOf, verdictText } from './verdict.js';

/** The most failures the summary shows: a summary page is for the first look; the other reports hold them all. */
const MAX_FAILURES = 20;

/**
 * Where text stands in a Markdown line: at the start of a block (a paragraph, a list item's text),
 * where a `#`, `-`, `1.` or `>` would begin a heading, a list or a quote; after other text; or in a table cell.
 */
type Place = 'start' | 'inline' | 'cell';

/** A backslash before what it would escape, and a link, emphasis, code or strikethrough would start or end. */
const INLINE_MARKUP = /\\(?=[!-/:-@[-`{-~])|[`*[~]/g;

/** What GFM turns into a link by itself: a URL's scheme (`https://`), `www.`, an e-mail address. */
const AUTOLINKS: readonly [RegExp, string][] = [
  [/\b([a-z][a-z0-9+.-]*):(?=\/\/)/gi, '$1\\:'],
  [/\b(www)\./gi, '$1\\.'],
  [/(\w)@(?=\w)/g, '$1\\@'],
];

/** At the start of a block: what would make it a heading, a list, a quote or a rule instead of text. */
const BLOCK_STARTS: readonly [RegExp, string][] = [
  [/^(#{1,6})(?=\s|$)/, '\\$1'],
  [/^([-+])(?=\s|$)/, '\\$1'],
  [/^(\d{1,9})([.)])(?=\s|$)/, '$1\\$2'],
  [/^>/, '\\>'],
  [/^-(?=(?:\s*-){2,}\s*$)/, '\\-'],
];

/**
 * Text that Markdown (GitHub's: CommonMark with tables, strikethrough and autolinks) shows as it is:
 * no tag, no link, no emphasis, no heading or list, and in a table cell no cell ended early, on one
 * line. Only what would be markup where the text stands is escaped, so a summary reads plainly in
 * its raw form too (`petstore-verify: 1 fault found.`, not `petstore\-verify\: 1 fault found\.`).
 */
export function markdownText(text: string, place: Place = 'inline'): string {
  let shown = text
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .replace(/&(?=#?\w+;)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(INLINE_MARKUP, '\\$&')
    // `_` emphasises only where it is not inside a word: `snake_case` is text as it is.
    .replace(/_/g, (underscore, at: number, whole: string) =>
      /[\p{L}\p{N}]/u.test(whole[at - 1] ?? '') && /[\p{L}\p{N}]/u.test(whole[at + 1] ?? '') ? underscore : '\\_',
    );
  for (const [pattern, replacement] of AUTOLINKS) shown = shown.replace(pattern, replacement);
  if (place === 'cell') shown = shown.replace(/\|/g, '\\|');
  if (place === 'start') for (const [pattern, replacement] of BLOCK_STARTS) shown = shown.trimStart().replace(pattern, replacement);
  return shown;
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
      lines.push(`  - ${markdownText(finding.message, 'start')}`);
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
    markdownText(totalsText(coverage), 'start'),
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
      lines.push(`| ${row.undocumented ? '⚠' : row.exercised ? '✓' : '·'} | ${markdownText(row.what, 'cell')} | ${markdownText(row.answered, 'cell')} |`);
  }
  if (coverage.unmatched.requests > 0)
    lines.push(
      '',
      markdownText(`${coverage.unmatched.requests} requests matched no operation of the spec (the probes of other spellings and methods).`, 'start'),
    );
  return lines;
}

/** The run as a GitHub step summary. */
export function markdownSummary(report: VerificationReport): string {
  const lines = [
    '## petstore-verify',
    '',
    `**${markdownText(verdictText(report))}**`,
    '',
    markdownText(`${countsText(report)} · ${report.baseUrl} · run ${report.runId}${report.readOnly ? ' · read-only' : ''}`, 'start'),
    ...failureLines(report),
    ...coverageLines(report),
  ];
  return `${lines.join('\n')}\n`;
}
