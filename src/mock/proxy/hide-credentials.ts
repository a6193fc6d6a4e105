/**
 * A deployment may echo the credential in a response; what the proxy logs, keeps in its report and
 * relays to the client never holds it.
 */

/** The token of a Bearer credential, if the header holds one. */
export function bearerToken(authorization: string | undefined): string | undefined {
  return /^bearer\s+(\S+)/i.exec(authorization ?? '')?.[1];
}

/**
 * Every form a secret can take in a text: as sent and without its `=` padding (the rest is the key),
 * base64 and base64url (padded or not), percent-encoded once or twice, JSON-escaped (`\/`). Longest
 * first, so that a form is replaced whole before a shorter one inside it.
 */
function secretForms(secret: string): string[] {
  const base64 = Buffer.from(secret).toString('base64');
  const forms = [secret, secret.replace(/=+$/, ''), base64, base64.replace(/=+$/, ''), Buffer.from(secret).toString('base64url')];
  forms.push(encodeURIComponent(secret), encodeURIComponent(encodeURIComponent(secret)), JSON.stringify(secret).slice(1, -1).replaceAll('/', '\\/'));
  return forms;
}

/** Text with each secret, in any form `secretForms` knows, replaced by `***`. */
export function redactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  const forms = [...new Set(secrets.filter((secret): secret is string => secret !== undefined && secret.length >= 4).flatMap(secretForms))]
    .filter((form) => form.length >= 4)
    .sort((a, b) => b.length - a.length);
  return (text) => forms.reduce((redacted, form) => redacted.replaceAll(form, '***'), text);
}

/** Text on one line, for the log: a message may quote a body with line breaks. */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ');
}
