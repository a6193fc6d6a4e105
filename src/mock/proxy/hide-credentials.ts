/**
 * A deployment may echo a credential in a response; what the proxy logs, keeps in its report, records
 * and relays to the client never holds it, in any form the package's one redactor finds (src/redact/).
 */
import { credentialSecrets, KeyRedactor } from '../../redact/key-redactor.js';
import { memoize } from '../core/memo.js';

/**
 * The redactor of a request holding `authorization`: it hides `secrets` (the mock's keys and the
 * upstream key) and the request's own credential, whatever its scheme (a Basic one's password too);
 * one shorter than 8 characters where it stands as a token of its own.
 * Made once per `Authorization` value a client repeats: a redactor compiles its patterns when made.
 * @example
 * const hide = requestRedactor([upstreamKey]);
 * hide(request.headers.authorization).text(body); // no form of either left
 */
export function requestRedactor(secrets: readonly (string | undefined)[]): (authorization: string | undefined) => KeyRedactor {
  // A secret under 8 characters only as a token of its own: what is relayed is the deployment's data, and a
  // credential `abc` must not turn a pet `Fabcd` into `F***d` (nor a number, nor a media type, into no JSON).
  const made = memoize((authorization) => new KeyRedactor([...secrets, ...credentialSecrets(authorization)], { shortAsToken: true }), 16);
  return (authorization) => made(authorization ?? '');
}

/** Text on one line, for the log: a message may quote a body with line breaks. */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ');
}
