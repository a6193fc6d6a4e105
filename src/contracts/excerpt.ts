/**
 * Every value a report echoes is an excerpt: a deployment may answer a name of five million characters
 * or an id of a million digits, and a report (the console, JSON, JUnit, HTML, the step summary) must
 * stay readable and small whatever it sends. The rule, stated once and applied where every result of
 * every suite passes (the runner): a run of more than `EXCERPT_CHARS` characters without a space (a
 * value, a URL, a body) keeps its start, then an ellipsis and its length; a text still longer than
 * `MAX_TEXT_CHARS` keeps its start and its end. The HAR file (`--har`), asked for to see everything,
 * keeps the answers whole.
 */
import type { CheckResult, Finding } from './check.js';
import type { RecordedRequest } from './http.js';

/** The most characters of one run without a space a report shows. */
const EXCERPT_CHARS = 200;
/** The most characters of one text (a message, a reason) a report shows. */
const MAX_TEXT_CHARS = 2_000;
/** Of a text cut to `MAX_TEXT_CHARS`, how much of its end is kept: where a message says what to do. */
const KEPT_END_CHARS = 500;

/**
 * `text` cut to its first `max` characters, with an ellipsis and how long it was; as it is when no
 * longer. The cut is a copy: a slice of a long string keeps the whole of it alive in V8 (a body of
 * megabytes, held by every report that shows its start).
 */
export function excerpt(text: string, max = EXCERPT_CHARS): string {
  return text.length > max ? `${Array.from(text.slice(0, max)).join('')}… (${text.length} characters)` : text;
}

/** A text as a report shows it: each long run without a space an excerpt, the whole at most `MAX_TEXT_CHARS` and a little. */
export function shortened(text: string): string {
  // Longer than an excerpt's own run (its characters and the ellipsis), so that shortening twice changes nothing.
  const runs = text.replace(new RegExp(`\\S{${EXCERPT_CHARS + 2},}`, 'g'), (run) => excerpt(run));
  if (runs.length <= MAX_TEXT_CHARS) return runs;
  const start = runs.slice(0, MAX_TEXT_CHARS - KEPT_END_CHARS);
  return `${start} … (${runs.length - start.length - KEPT_END_CHARS} characters left out) … ${runs.slice(-KEPT_END_CHARS)}`;
}

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
