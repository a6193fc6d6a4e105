/**
 * The run as one self-contained HTML page (`--reporter html`): the verdict, every check, the
 * failures with their evidence and curl lines, and the spec coverage. No script, no external asset:
 * the style is inline and the page forbids everything else (Content-Security-Policy). What the
 * deployment sent is hostile input: every text is escaped, in content and in attributes alike.
 */

import { reportText } from '../../terminal/terminal-text.js';
import type { CheckResult, Finding } from '../check.js';
import { toCurl } from '../http.js';
import type { VerificationReport } from '../runner.js';
import { type Coverage, coverageRows, totalsText } from './coverage-reporter.js';
import { countsText, failuresOf, followersOf, verdictText } from './verdict.js';

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML shows it, in content or a quoted attribute. */
export function escapeHtml(text: string): string {
  return reportText(text).replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem;color:#1b1b1b}
h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:2rem}h3{font-size:1rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}td,th{border:1px solid #ddd;padding:.25rem .5rem;text-align:left;vertical-align:top}
pre{background:#f5f5f5;padding:.5rem;white-space:pre-wrap;word-break:break-all}
.pass{color:#17692c}.fail{color:#b3261e}.skip{color:#8a6d00}.error{color:#7b1fa2}.unexercised{color:#777}.undocumented{color:#b3261e}
.verdict{font-weight:600}`;

const MARKS: Readonly<Record<CheckResult['outcome'], string>> = { pass: '✓', fail: '✗', skip: '○', error: '!' };

function findingHtml(finding: Finding): string {
  const details = [
    ['expected', finding.expected],
    ['actual', finding.actual],
    ['schema', finding.schemaPath],
    ['status', finding.status === undefined ? undefined : String(finding.status)],
    ['body', finding.excerpt],
  ]
    .filter((pair): pair is [string, string] => pair[1] !== undefined && pair[1] !== '')
    .map(([name, value]) => `<dt>${name}</dt><dd><code>${escapeHtml(value)}</code></dd>`)
    .join('');
  const curl = finding.request ? `<pre>${escapeHtml(toCurl(finding.request))}</pre>` : '';
  return `<li>${escapeHtml(finding.message)}${details ? `<dl>${details}</dl>` : ''}${curl}</li>`;
}

function failuresHtml(report: VerificationReport): string {
  const failed = failuresOf(report);
  if (failed.length === 0) return '';
  const items = failed.map((result) => {
    const followers = followersOf(report, result).map(
      (follower) => `<li>${escapeHtml(`${follower.id}: ${follower.findings[0]?.message ?? follower.title}`)}</li>`,
    );
    const following = followers.length > 0 ? `<p>Failed from this fault alone:</p><ul class="followers">${followers.join('')}</ul>` : '';
    return `<h3 class="fail">${escapeHtml(result.id)}: ${escapeHtml(result.title)}</h3><ul>${result.findings.map(findingHtml).join('')}</ul>${following}`;
  });
  return `<h2>Failures</h2>${items.join('')}`;
}

function resultsHtml(report: VerificationReport): string {
  if (report.results.length === 0) return '';
  const rows = report.results.map((result) => {
    const notes = [result.reason, ...result.warnings.map((warning) => `⚠ ${warning}`)].filter((note) => note !== undefined);
    return `<tr class="${result.outcome}"><td>${MARKS[result.outcome]}</td><td>${escapeHtml(result.id)}</td><td>${escapeHtml(result.title)}</td><td>${Math.round(result.ms)} ms</td><td>${notes.map(escapeHtml).join('<br>')}</td></tr>`;
  });
  return `<h2>Checks</h2><table><thead><tr><th></th><th>check</th><th>what it checks</th><th>time</th><th>notes</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function coverageHtml(coverage: Coverage | undefined): string {
  if (coverage === undefined) return '';
  const tables = coverage.operations.map((operation) => {
    const rows = coverageRows(operation).map((row) => {
      const style = row.undocumented ? 'undocumented' : row.exercised ? 'pass' : 'unexercised';
      return `<tr class="${style}"><td>${row.undocumented ? '⚠' : row.exercised ? '✓' : '·'}</td><td>${escapeHtml(row.what)}</td><td>${escapeHtml(row.answered)}</td></tr>`;
    });
    return `<h3>${escapeHtml(`${operation.operationId}: ${operation.method} ${operation.path}`)} (${operation.requests} requests)</h3><table><thead><tr><th></th><th>what</th><th>answered</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
  });
  const unmatched =
    coverage.unmatched.requests > 0
      ? `<p>${coverage.unmatched.requests} requests matched no operation of the spec (the probes of other spellings and methods).</p>`
      : '';
  return `<h2>Spec coverage</h2><p>${escapeHtml(totalsText(coverage))}</p><p>✓ exercised · · not exercised · ⚠ answered, though the spec does not document it</p>${tables.join('')}${unmatched}`;
}

/** The report as a self-contained HTML page. */
export function htmlReport(report: VerificationReport): string {
  const verdictClass = report.exitCode === 0 ? 'pass' : report.exitCode === 1 ? 'fail' : 'error';
  const title = `petstore-verify: ${report.baseUrl}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<p class="verdict ${verdictClass}">${escapeHtml(verdictText(report))}</p>
<p>${escapeHtml(countsText(report))} · run ${escapeHtml(report.runId)} · started ${escapeHtml(report.startedAt)} · ${report.requests} requests · ${report.posts} writes${report.readOnly ? ' · read-only' : ''}</p>
${failuresHtml(report)}
${coverageHtml(report.coverage)}
${resultsHtml(report)}
</body>
</html>
`;
}
