/**
 * Dot segments and hidden slashes in a request path. A host that hands a request-target on (the
 * `--proxy` to a deployment, the Vite dev server's proxy to the mock) must not let one through: the
 * next hop resolves it (a WHATWG URL reads `%2e%2e` as `..`), so the request would reach another route
 * than the one every guard before it judged.
 */

/** A percent-escape; decoded byte by byte, a `.`, `/` or `\` shows whatever the bytes around it are. */
const ESCAPE = /%([0-9a-f]{2})/gi;

/** A segment as the least careful server may read it: percent-decoded until nothing changes (`%252e` is `.` too). */
function decodedSegment(segment: string): string {
  let form = segment;
  let next = form.replace(ESCAPE, decodeByte);
  // Each round takes two characters per escape away, so the loop ends.
  while (next !== form) {
    form = next;
    next = form.replace(ESCAPE, decodeByte);
  }
  return form;
}

/** One escape decoded to the byte it stands for, as a character. */
function decodeByte(_escape: string, hex: string): string {
  return String.fromCharCode(Number.parseInt(hex, 16));
}

/**
 * Whether a path could climb out of the folder it names, here or at the deployment: a dot segment
 * (`.`, `..`, or any percent-encoded form), or a slash or backslash hidden in a segment (`%2f`, `%5c`),
 * which a server may decode before it resolves the path. URLs read `\` as `/`, so it splits segments too.
 */
export function climbs(path: string): boolean {
  return path.split(/[/\\]/).some((segment) => {
    const form = decodedSegment(segment);
    return form === '.' || form === '..' || /[/\\]/.test(form);
  });
}
