/**
 * A deployment may echo the credential in a response; what the proxy logs, keeps in its report and
 * relays to the client never holds it.
 */

/** The token of a Bearer credential, if the header holds one. */
export function bearerToken(authorization: string | undefined): string | undefined {
  return /^bearer\s+(\S+)/i.exec(authorization ?? '')?.[1];
}

/** Text with each secret (as sent, in base64, percent-encoded) replaced by `***`. */
export function redactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  const forms = secrets
    .filter((secret): secret is string => secret !== undefined && secret.length >= 4)
    .flatMap((secret) => [secret, Buffer.from(secret).toString('base64'), encodeURIComponent(secret)]);
  return (text) => forms.reduce((redacted, form) => redacted.replaceAll(form, '***'), text);
}

/** Text on one line, for the log: a message may quote a body with line breaks. */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ');
}
