/**
 * The fault a mismatch of the Pact Verifier shows, named as the spec suite's checks name it, so that a
 * fault both suites meet is one failure (causes.ts): an answer whose Content-Type is not JSON, a field
 * of another JSON type or missing, pets of another value than the query asked for.
 */
import { otherValueFault } from '../causes.js';
import { formFault } from '../check.js';

/** One mismatch as the Verifier's JSON report gives it. */
export interface Mismatch {
  readonly type?: string;
  readonly mismatch?: string;
  readonly path?: string;
  readonly key?: string;
}

/** The fault of `mismatch` in the answer to `url`, whose status the pact expects to be `status`; undefined when it names none the spec suite knows. */
export function mismatchFault(mismatch: Mismatch, status: number, url: string): string | undefined {
  const { type = '', mismatch: text = '', path = '', key = '' } = mismatch;
  if (type === 'BodyTypeMismatch' || (type === 'HeaderMismatch' && key.toLowerCase() === 'content-type'))
    return formFault('media-type', status, 'headers/content-type');
  if (type !== 'BodyMismatch') return undefined;
  const missing = /missing the following keys: ([^,\s]+)/.exec(text)?.[1];
  if (path === '$' && missing !== undefined) return formFault('schema', status, `body/${missing}`);
  // `$.id` of one pet, `$[3].id` of a page.
  const field = /^\$(?:\[\d+\])?\.(\w+)$/.exec(path)?.[1];
  if (field === undefined) return undefined;
  // An Error's status other than the status of its answer (conformance's rule `error-status`).
  if (status >= 400 && path === '$.status' && /to be equal to|to match/.test(text)) return formFault('error-status', status, 'body/status');
  if (/to be (the same type as|an? (integer|number|string|boolean)\b)/.test(text)) return formFault('schema', status, `body/${field}`);
  const asked = new URL(url).searchParams.get(field);
  return path.startsWith('$[') && asked !== null ? otherValueFault(field) : undefined;
}
