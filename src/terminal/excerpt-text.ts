/**
 * Outside text as a report or an error shows it: a deployment may answer a name of five million
 * characters or an id of a million digits, and what shows it (the verifier's reports, the typed
 * client's `ApiError`) must stay readable and small whatever it sends. A run of more than
 * `EXCERPT_CHARS` characters without a space keeps its start, then an ellipsis and its length; a text
 * still longer than `MAX_TEXT_CHARS` keeps its start and its end.
 */

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

/** A run without a space longer than an excerpt's own (its characters and the ellipsis): shortening twice changes nothing. */
const LONG_RUN = EXCERPT_CHARS + 2;

/**
 * `text` with each run of `LONG_RUN` characters or more without a space an excerpt. A scan, not a
 * regular expression: `\S{202,}` over a run of 20 million characters overflowed the regex engine's stack.
 */
function excerptedRuns(text: string): string {
  const parts: string[] = [];
  let start = 0;
  for (const space of text.matchAll(/\s/g)) {
    const run = text.slice(start, space.index);
    parts.push(run.length >= LONG_RUN ? excerpt(run) : run, space[0]);
    start = space.index + 1;
  }
  const last = text.slice(start);
  parts.push(last.length >= LONG_RUN ? excerpt(last) : last);
  return parts.join('');
}

/** A text as a report shows it: each long run without a space an excerpt, the whole at most `MAX_TEXT_CHARS` and a little. */
export function shortened(text: string): string {
  const runs = text.length < LONG_RUN ? text : excerptedRuns(text);
  if (runs.length <= MAX_TEXT_CHARS) return runs;
  const start = runs.slice(0, MAX_TEXT_CHARS - KEPT_END_CHARS);
  return `${start} … (${runs.length - start.length - KEPT_END_CHARS} characters left out) … ${runs.slice(-KEPT_END_CHARS)}`;
}

/** The most values of a list (an enum's) a sentence names. */
const NAMED_VALUES = 20;

/**
 * Values as a sentence names them: all when they are few, else the first `NAMED_VALUES` and how many
 * more. Built within its bound, not cut after: a spec's enum of 90,003 values was joined whole into
 * every 400 and redacted before the Error's cut, 7.5 s of a held event loop per request.
 * @example
 * namedValues(['available', 'pending', 'sold']); // 'available, pending, sold'
 */
export function namedValues(values: readonly unknown[]): string {
  const named = values.slice(0, NAMED_VALUES).map(String).join(', ');
  return values.length > NAMED_VALUES ? `${named} and ${values.length - NAMED_VALUES} more` : named;
}
