/**
 * The deployment the proxy forwards to, and the one URL each request goes to there. The key goes with
 * every forwarded request, so no request-target may lead it to another origin.
 */

/** The `--proxy` base URL, parsed and checked: http or https, with no query, fragment or credentials. */
export function parseUpstream(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`upstream: "${value}" is not a URL; give the deployment's base URL, like https://staging.example.com/v1`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`upstream: must be http or https, not ${url.protocol}`);
  if (url.search || url.hash || url.username || url.password) throw new TypeError('upstream: must carry no query, fragment or credentials');
  return url;
}

/**
 * The deployment's URL for an API request-target: the base URL followed by the part of `target` under
 * `basePath`. `undefined` when that URL leaves the base URL's origin: with a base URL at the root,
 * `/v1@other.example/` would make the deployment's host a user name and send the key to other.example.
 */
export function upstreamUrl(upstream: URL, basePath: string, target: string): URL | undefined {
  const url = new URL(`${upstream.href.replace(/\/+$/, '')}${target.slice(basePath.length)}`);
  return url.origin === upstream.origin ? url : undefined;
}
