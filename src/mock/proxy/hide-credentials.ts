/**
 * A deployment may echo the credential in a response; what the proxy logs, keeps in its report and
 * relays to the client never holds it.
 */
import { keyForms } from '../pipeline/request-log.js';

/** The token of a Bearer credential, if the header holds one. */
export function bearerToken(authorization: string | undefined): string | undefined {
  return /^bearer\s+(\S+)/i.exec(authorization ?? '')?.[1];
}

/**
 * Every form a secret can take in a text: those the request log hides (as sent, without its `=`
 * padding, base64 and base64url unpadded: `keyForms`), and here, where a form is replaced in place,
 * base64 with its padding, percent-encoded once or twice and JSON-escaped (`\/`) as well.
 */
function secretForms(secret: string): string[] {
  const padded = Buffer.from(secret).toString('base64');
  return [
    ...keyForms([secret]),
    padded,
    encodeURIComponent(secret),
    encodeURIComponent(encodeURIComponent(secret)),
    JSON.stringify(secret).slice(1, -1).replaceAll('/', '\\/'),
  ];
}

/** Text with each secret, in any form `secretForms` knows, replaced by `***`. */
export function redactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  // Longest first, so that a form is replaced whole before a shorter one inside it.
  const forms = [...new Set(secrets.filter((secret): secret is string => secret !== undefined && secret.length >= 4).flatMap(secretForms))]
    .filter((form) => form.length >= 4)
    .sort((a, b) => b.length - a.length);
  return (text) => forms.reduce((redacted, form) => redacted.replaceAll(form, '***'), text);
}

/** Text on one line, for the log: a message may quote a body with line breaks. */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ');
}
