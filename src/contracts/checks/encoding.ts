import { MIMEType } from 'node:util';

/**
 * Why a Content-Type cannot carry a JSON answer, or undefined when it can: `application/json` or
 * a `+json` type, with no charset or `utf-8` (JSON is UTF-8, RFC 8259; a client that believes
 * another charset garbles every name outside ASCII).
 */
export function jsonMediaTypeProblem(contentType: string | null): string | undefined {
  if (contentType === null) return 'a JSON body needs Content-Type: application/json';
  let type: MIMEType;
  try {
    type = new MIMEType(contentType);
  } catch {
    return 'it is not a media type';
  }
  if (type.essence !== 'application/json' && !(type.type === 'application' && type.subtype.endsWith('+json'))) return 'not a JSON media type';
  const charset = type.params.get('charset');
  if (charset !== null && charset.toLowerCase() !== 'utf-8') return `charset ${charset}, but JSON is UTF-8`;
  return undefined;
}

/**
 * True when a body read as UTF-8 starts with gzip's magic bytes (1f 8b; 8b is no UTF-8, so it reads
 * as U+FFFD): the deployment compressed it without saying so, or compressed it twice.
 */
export function stillCompressed(text: string): boolean {
  return text.startsWith('\u001f\uFFFD');
}
