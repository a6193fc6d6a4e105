/**
 * True when a body decoded as UTF-8 starts with gzip's magic bytes (1f 8b; 8b is no UTF-8, so it decodes
 * as U+FFFD): the deployment compressed it without saying so, or compressed it twice.
 */
export function stillCompressed(text: string): boolean {
  return text.startsWith('\u001f\uFFFD');
}
