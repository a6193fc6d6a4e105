/**
 * The one rule for every host a user names, alone (`--host`, `--allowed-host`) or in a URL (`--proxy`,
 * `--base-url`, a `--pact` URL, `--store`, `expectRequests(url)`): an IP address, or a host name of
 * RFC 1123. A URL is held to it as written: WHATWG's parser reads `http:///v1` as the host `v1` and
 * `http:v1` likewise, so the authority is taken from the text itself, never from the parsed URL.
 * No Node module here: `expectRequests` may run in a browser.
 */

/** A label of a host name (RFC 1123 2.1): letters, digits and hyphens, 63 at most, a hyphen at neither end. */
const HOST_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** An IPv4 address in dotted decimal, each part 0 to 255 without a leading zero. */
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** Whether `value` is an IPv6 address (no zone), as the URL parser reads one between brackets. */
function isIpv6(value: string): boolean {
  if (!value.includes(':') || value.includes('%')) return false;
  try {
    return new URL(`http://[${value}]/`).hostname !== '';
  } catch {
    return false;
  }
}

/** What a host name is, said when one is refused. */
export const HOST_NAME_RULE =
  'A name is labels of letters, digits and inner hyphens (63 at most) between dots (RFC 1123), its last not all digits (1.2.3.256 is no address).';

/**
 * Whether `value` is an IP address or a host name of RFC 1123: labels (`HOST_LABEL`) between dots, 253
 * characters at most, one final dot allowed, and a last label that is not all digits, so that a name
 * never reads as an IPv4 address (`1.2.3.256` and `0x7f.1` are neither).
 * @example
 * isHostName('staging.example.com'); // true
 * isHostName('-evil.com'); // false
 */
export function isHostName(value: string): boolean {
  if (IPV4.test(value) || isIpv6(value)) return true;
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  const labels = name.split('.');
  return name.length > 0 && name.length <= 253 && labels.every((label) => HOST_LABEL.test(label)) && !/^\d+$/.test(labels.at(-1) ?? '');
}

/** `scheme://authority` as written, and the rest. */
const WRITTEN = /^([a-z][a-z0-9+.-]*):\/\/([^/?#\\]*)/i;

/** The host of an authority as written (`user@host:port`, `[::1]:80`): no user, no port, no brackets. */
function writtenHost(authority: string): string {
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  if (hostPort.startsWith('[')) return hostPort.slice(1, hostPort.indexOf(']') === -1 ? undefined : hostPort.indexOf(']'));
  const colon = hostPort.lastIndexOf(':');
  return colon === -1 ? hostPort : hostPort.slice(0, colon);
}

/** Whether `value` holds a space or a C0 control character (tab, line break...) or DEL. */
function hasSpaceOrControl(value: string): boolean {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code <= 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** A URL with whatever stands before `@` in its authority left out: `https://***@host/v1`. */
export function withoutUserinfo(source: string): string {
  return source.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1***@');
}

/** What a user URL must be, and who gave it: the flag or option named in every sentence. */
export interface UrlRule {
  /** The flag or option, as the sentence names it: `--proxy`, `expectRequests`. */
  readonly name: string;
  /** The schemes it takes, with their colon: `['http:', 'https:']`. */
  readonly schemes: readonly string[];
  /** A URL to give instead. */
  readonly example: string;
}

/**
 * A URL a user gave, parsed, once its scheme is one `rule` takes and its host, as written, passes the
 * host rule (`isHostName`); else a `TypeError` naming `rule.name` and what to give. The sentence quotes
 * the host only, never the URL, whose path or query may hold a key.
 * @example
 * parseUserUrl('https://staging.example.com/v1', { name: '--base-url', schemes: ['http:', 'https:'], example: 'https://staging.example.com/v1' });
 * parseUserUrl('http:///v1', ...); // TypeError: --base-url names no host ...
 */
export function parseUserUrl(value: string, rule: UrlRule): URL {
  if (typeof value !== 'string') throw new TypeError(`${rule.name}: must be a URL, a string such as ${rule.example}; got a value of type ${typeof value}.`);
  if (!WRITTEN.test(value.trim())) throw new TypeError(`${rule.name}: is not a URL written scheme://host/..., such as ${rule.example}.`);
  // The URL parser drops white space around a URL, and tabs and line breaks within it: what it reads is then not what was written.
  if (hasSpaceOrControl(value))
    throw new TypeError(
      `${rule.name}: holds white space or a control character, which a URL does not; give it alone, such as ${rule.example} (a space within is %20).`,
    );
  const schemes = rule.schemes.map((scheme) => `${scheme}//`).join(' or ');
  const written = WRITTEN.exec(value) ?? [];
  const scheme = `${(written[1] ?? '').toLowerCase()}:`;
  if (!rule.schemes.includes(scheme)) throw new TypeError(`${rule.name}: must be a ${schemes} URL, not ${scheme}//; give one such as ${rule.example}.`);
  const host = writtenHost(written[2] ?? '');
  if (host === '') throw new TypeError(`${rule.name}: must name the host (scheme:/// names none, whatever follows); give a URL such as ${rule.example}.`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`${rule.name}: is not a URL (a space, a port past 65535, a bad character?); give one such as ${rule.example}.`);
  }
  // fetch cannot send a URL with credentials (WHATWG Fetch), and a text quoting the URL would show them: refused as written.
  if ((scheme === 'http:' || scheme === 'https:') && (url.username !== '' || url.password !== ''))
    throw new TypeError(
      `${rule.name} ${withoutUserinfo(value)} carries credentials ("user:password@"), which are never sent nor shown: give the URL without them, and a key as its own option.`,
    );
  // A name written in another script is held to the rule in the ASCII form (xn--) it is sent in.
  const name = /[^\x20-\x7e]/.test(host) ? url.hostname : host;
  if (!isHostName(name))
    throw new TypeError(`${rule.name}: ${JSON.stringify(host)} is no IP address nor host name. ${HOST_NAME_RULE} Give a URL such as ${rule.example}.`);
  return url;
}
