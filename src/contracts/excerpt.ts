/**
 * Every value a report echoes is an excerpt: a deployment may answer a name of five million characters
 * or an id of a million digits, and a report (the console, JSON, JUnit, HTML, the step summary) must
 * stay readable and small whatever it sends. The rule, stated once and applied where every result of
 * every suite passes (the runner): a run of more than `EXCERPT_CHARS` characters without a space (a
 * value, a URL, a body) keeps its start, then an ellipsis and its length; a text still longer than
 * `MAX_TEXT_CHARS` keeps its start and its end. The HAR file (`--har`), asked for to see everything,
 * keeps the answers whole.
 */

import { excerpt, shortened } from '../terminal/excerpt-text.js';
import type { CheckResult, Finding } from './check.js';
import type { RecordedRequest } from './http.js';

function shownRequest(request: RecordedRequest, shown: (text: string) => string): RecordedRequest {
  return {
    ...request,
    url: shown(request.url),
    headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, shown(value)])),
    ...(request.body === undefined ? {} : { body: shown(request.body) }),
  };
}

function shownFinding(finding: Finding, shown: (text: string) => string): Finding {
  const text = (key: 'message' | 'expected' | 'actual' | 'excerpt') => (finding[key] === undefined ? {} : { [key]: shown(finding[key]) });
  return {
    ...finding,
    ...text('message'),
    ...text('expected'),
    ...text('actual'),
    ...text('excerpt'),
    ...(finding.request === undefined ? {} : { request: shownRequest(finding.request, shown) }),
    ...(finding.replay === undefined ? {} : { replay: finding.replay.map((request) => shownRequest(request, shown)) }),
  };
}

/**
 * A result as every report shows it: each text the deployment may have put in it passed through
 * `shown` (by default `shortened`; the runner hides a key there too when the base URL holds one).
 */
export function shortenedResult(result: CheckResult, shown: (text: string) => string = shortened): CheckResult {
  return {
    ...result,
    // A pact's interaction names its id and title: a description of 10,000 characters once made each result 20 KB.
    id: excerpt(result.id),
    title: shown(result.title),
    findings: result.findings.map((finding) => shownFinding(finding, shown)),
    warnings: result.warnings.map(shown),
    ...(result.reason === undefined ? {} : { reason: shown(result.reason) }),
  };
}
