/**
 * The deployment the proxy forwards to, and the one URL each request goes to there. The key goes with
 * every forwarded request, so no request-target may lead it to another origin, nor above the base URL's
 * path: `/v1/../../internal/secret` would otherwise reach the deployment as `/internal/secret`.
 */

import { climbs } from '../../http/dot-segments.js';
import { parseUserUrl } from '../../http/user-url.js';

/** The `--proxy` base URL, parsed and checked: http or https, with no query or fragment (nor credentials, as every URL: `parseUserUrl`). */
export function parseUpstream(value: string): URL {
  const url = parseUserUrl(value, { name: 'upstream', schemes: ['http:', 'https:'], example: 'https://staging.example.com/v1' });
  if (url.search || url.hash) throw new TypeError('upstream: must carry no query or fragment');
  return url;
}

/** The deployment's URL for a request-target, or the message of the 400 when it would not stay under the base URL. */
type UpstreamUrl = { readonly url: URL } | { readonly rejection: string };

/**
 * The deployment's URL for an API request-target: the base URL followed by the part of `target` under
 * `basePath`. Rejected when that part has a dot segment or a hidden slash, and when the URL leaves the
 * base URL's origin (with a base URL at the root, `/v1@other.example/` would make the deployment's host
 * a user name and send the key to other.example) or its path.
 */
export function upstreamUrl(upstream: URL, basePath: string, target: string): UpstreamUrl {
  const below = target.slice(basePath.length);
  const path = below.split('?')[0] ?? '';
  if (climbs(path))
    return {
      rejection: `The request path has a dot segment (".", "..", or a percent-encoded form) or an encoded slash, which could lead it out of ${basePath}: the proxy forwards only paths under ${basePath}, never above the deployment's base URL.`,
    };
  const base = upstream.href.replace(/\/+$/, '');
  const url = new URL(`${base}${below}`);
  const basePathThere = upstream.pathname.replace(/\/+$/, '');
  const under = url.pathname === basePathThere || url.pathname.startsWith(`${basePathThere}/`);
  return url.origin === upstream.origin && under ? { url } : { rejection: 'The request-target would leave the deployment the proxy forwards to.' };
}
