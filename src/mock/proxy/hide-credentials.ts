/**
 * A deployment may echo a credential in a response; what the proxy logs, keeps in its report, records
 * and relays to the client never holds it, in any form the package's one redactor finds (src/redact/).
 */
import { credentialSecrets, KeyRedactor } from '../../redact/key-redactor.js';
import { memoize } from '../core/memo.js';

/**
 * The redactor of a request holding `authorization`: it hides `secrets` (the mock's keys and the
 * upstream key) and the request's own credential, whatever its scheme (a Basic one's password too).
 * Made once per `Authorization` value a client repeats: a redactor compiles its patterns when made.
 * @example
 * const hide = requestRedactor([upstreamKey]);
 * hide(request.headers.authorization).text(body); // no form of either left
 */
export function requestRedactor(secrets: readonly (string | undefined)[]): (authorization: string | undefined) => KeyRedactor {
  const made = memoize((authorization) => new KeyRedactor([...secrets, ...credentialSecrets(authorization)]), 16);
  return (authorization) => made(authorization ?? '');
}

/** Text on one line, for the log: a message may quote a body with line breaks. */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ');
}
