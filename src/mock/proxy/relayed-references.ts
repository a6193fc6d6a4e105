/**
 * The URI references of a deployment's answer (`Location`, `Content-Location`, `Link`, RFC 9110 10.2.2,
 * 8.7 and RFC 8288) as the proxy's client must read them. The client resolves them against the proxy's
 * URL, on the mock's origin, so a reference is relayed only when it names a resource of the API the
 * proxy relays (the deployment's origin, under its base path), rewritten to the same resource under the
 * proxy's base path, as the mock writes it (`Location: /v1/pets/3`). Any other (`http://evil.example/phish`)
 * is dropped: relayed, it would make the mock's origin an open redirect, or direct a browser's fetches
 * (`Link: <...>; rel=preload`) from it.
 */

/** Where the proxy's client finds `reference`, one of the deployment's answer to `answered`; `undefined` when it leaves the API. */
export function proxiedReference(reference: string, answered: URL, upstream: URL, basePath: string): string | undefined {
  let url: URL;
  try {
    url = new URL(reference.trim(), answered);
  } catch {
    return undefined;
  }
  const root = upstream.pathname.replace(/\/+$/, '');
  if (url.origin !== upstream.origin || (url.pathname !== root && !url.pathname.startsWith(`${root}/`))) return undefined;
  return `${basePath}${url.pathname.slice(root.length)}${url.search}${url.hash}`;
}

/** A `Link` value (RFC 8288: `<uri>; params, <uri>; params`) with each link rewritten as `rebase` says, those it drops left out; `undefined` when none is left. */
export function proxiedLinks(value: string, rebase: (reference: string) => string | undefined): string | undefined {
  const links: string[] = [];
  for (const [, reference = '', params = ''] of value.matchAll(/<([^>]*)>((?:[^,"]|"(?:[^"\\]|\\.)*")*)/g)) {
    const rebased = rebase(reference);
    if (rebased !== undefined) links.push(`<${rebased}>${params.trimEnd()}`);
  }
  return links.length === 0 ? undefined : links.join(', ');
}
