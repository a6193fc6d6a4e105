import { reportText } from '../../terminal/terminal-text.js';
import type { CheckResult, Finding } from '../check.js';
import { toCurl } from '../http.js';
import type { VerificationReport } from '../runner.js';

function escapeXml(text: string): string {
  // XML 1.0 cannot hold some characters at all, escaped or not: reportText replaces them.
  return reportText(text).replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function describeFinding(finding: Finding): string {
  return [
    finding.message,
    finding.expected !== undefined ? `expected: ${finding.expected}` : '',
    finding.actual !== undefined ? `actual: ${finding.actual}` : '',
    finding.schemaPath !== undefined ? `schema: ${finding.schemaPath}` : '',
    finding.excerpt ? `body: ${finding.excerpt}` : '',
    finding.request ? `request: ${toCurl(finding.request)}` : '',
    ...(finding.replay ?? []).map((request, i) => `replay ${i + 1}: ${toCurl(request)}`),
  ]
    .filter(Boolean)
    .join('\n');
}

function testcase(result: CheckResult): string {
  const attributes = `classname="petstore-verify.${result.suite}.${escapeXml(result.operationId ?? 'deployment')}" name="${escapeXml(`${result.id}: ${result.title}`)}" time="${(result.ms / 1000).toFixed(3)}"`;
  const inner: string[] = [];
  // One fault, one failed test: a check that failed only from another's fault points to it.
  if (result.follows !== undefined)
    inner.push(`<skipped message="${escapeXml(`fails only from the fault reported by ${result.follows}: ${result.findings[0]?.message ?? ''}`)}"/>`);
  else if (result.outcome === 'fail') {
    const followers = result.followers?.length ? `\n\nThese checks failed from this fault alone: ${result.followers.join(', ')}` : '';
    inner.push(
      `<failure message="${escapeXml(result.findings[0]?.message ?? 'failed')}" type="ContractViolation">${escapeXml(result.findings.map(describeFinding).join('\n\n') + followers)}</failure>`,
    );
  }
  if (result.outcome === 'skip') inner.push(`<skipped message="${escapeXml(result.reason ?? '')}"/>`);
  if (result.outcome === 'error') inner.push(`<error message="${escapeXml(result.reason ?? '')}" type="CannotVerify"/>`);
  if (result.warnings.length > 0) inner.push(`<system-out>${escapeXml(result.warnings.map((w) => `warning: ${w}`).join('\n'))}</system-out>`);
  return inner.length === 0 ? `    <testcase ${attributes}/>` : `    <testcase ${attributes}>\n      ${inner.join('\n      ')}\n    </testcase>`;
}

/** The report as JUnit XML, one testsuite per suite, for CI test tabs. */
export function junitReport(report: VerificationReport): string {
  const suites = report.fatal
    ? [
        `  <testsuite name="petstore-verify" tests="1" failures="0" errors="1" skipped="0" time="${(report.ms / 1000).toFixed(3)}">\n    <testcase classname="petstore-verify" name="reach the deployment"><error message="${escapeXml(report.fatal)}" type="CannotVerify"/></testcase>\n  </testsuite>`,
      ]
    : [...new Set(report.results.map((result) => result.suite))].map((suite) => {
        const results = report.results.filter((result) => result.suite === suite);
        const n = (outcome: CheckResult['outcome']) =>
          results.filter((result) => (result.follows === undefined ? result.outcome === outcome : outcome === 'skip')).length;
        const time = results.reduce((sum, result) => sum + result.ms, 0) / 1000;
        return `  <testsuite name="${suite}" tests="${results.length}" failures="${n('fail')}" errors="${n('error')}" skipped="${n('skip')}" time="${time.toFixed(3)}">\n${results.map(testcase).join('\n')}\n  </testsuite>`;
      });
  const { failed, errors, skipped, following } = report.counts;
  const tests = report.fatal ? 1 : report.results.length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="petstore-verify" tests="${tests}" failures="${failed}" errors="${report.fatal ? 1 : errors}" skipped="${skipped + following}" time="${(report.ms / 1000).toFixed(3)}">\n${suites.join('\n')}\n</testsuites>\n`;
}
