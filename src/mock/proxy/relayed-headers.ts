/**
 * What the proxy relays of a deployment's response headers. Its answer is the deployment's data served
 * from the mock's origin, so a header passes only when something says the client needs it, never because
 * nobody thought to drop it (a deny-list let `WWW-Authenticate: Basic`, `Report-To`, `NEL`,
 * `Speculation-Rules`, `SourceMap`, `Content-Disposition`, `Permissions-Policy`, `Alt-Svc` through).
 * A field is relayed when it is one of:
 * - the headers the spec documents for the operation and the status answered (`Location` on a 201,
 *   `Retry-After` on a 429, `Deprecation`, `Sunset` and `Link` on getPet...), each only when its value
 *   keeps to the schema the spec gives it; `WWW-Authenticate` only as a challenge of the scheme the
 *   operation's security names (`Bearer`), as that scheme writes it: a `Basic` challenge would open
 *   the browser's login dialog on the mock's origin;
 * - the representation fields a client needs to read the body (RFC 9110 8.3, 8.5: `Content-Type`,
 *   `Content-Language`), the answer's own control data (`Date`, RFC 9110 6.6.1; `Allow` on a 405,
 *   which RFC 9110 15.5.6 requires; `Retry-After`, 10.2.3; `Vary` and `ETag`, which give no freshness).
 * Each at most `MAX_RELAYED_FIELD_CHARS` characters. Everything else stays with the deployment: the
 * connection's fields (RFC 9110 7.6.1), the ones fetch already acted on (`Content-Length`,
 * `Content-Encoding`: the body relayed is decoded, its length counted again), its CORS, cookies,
 * reporting endpoints, policies, and freshness (`Cache-Control`, `Expires`, `Last-Modified`), which would
 * have the browser serve a deployment's answer from the mock's origin's cache in place of a live one.
 * URI references (`Location`, `Link`) keep only those naming a resource of the API the proxy relays,
 * rewritten to the proxy's base path (relayed-references.ts). Every relayed answer is data, never a
 * page: `X-Content-Type-Options: nosniff`, and a `Content-Security-Policy: sandbox` that puts even an
 * HTML page of the deployment in an origin of its own, without scripts, so it cannot read or drive the mock.
 */
import { openapi } from '../../generated/openapi.js';
import { type OpenApiDocument, operationsOf, resolve } from '../../openapi/document.js';
import { CORS_HEADERS } from '../core/messages.js';
import type { OperationId } from '../operations/operation.js';
import { RESPONSE_SCHEMAS } from '../pipeline/self-check.js';
import { proxiedLinks } from './relayed-references.js';

/** The longest field value relayed: the spec's longest (`Link`, an HTTP-date) is under 100 characters. */
export const MAX_RELAYED_FIELD_CHARS = 256;

/** The fields HTTP gives every answer that a client reading the body needs, whatever the operation. */
const REPRESENTATION_FIELDS = new Set(['content-type', 'content-language', 'date', 'allow', 'retry-after', 'vary', 'etag']);

/** Fields whose value is one URI reference. */
const REFERENCE_FIELDS = new Set(['location', 'content-location']);

/** What makes the answer data: no sniffing it into a page, and a page in a sandbox of its own. */
const AS_DATA = { 'x-content-type-options': 'nosniff', 'content-security-policy': 'sandbox' };

/** What the spec says of the answers of each operation: the headers documented for each status, and the schemes its security names. */
interface Documented {
  readonly headers: ReadonlyMap<string, ReadonlyMap<number, ReadonlySet<string>>>;
  readonly challenges: ReadonlyMap<string, readonly string[]>;
}

/** The auth-schemes (`Bearer`) of the `http` security schemes an operation's security requirements name. */
function challengesOf(doc: OpenApiDocument, requirements: readonly Readonly<Record<string, readonly string[]>>[]): string[] {
  const schemes: unknown = Reflect.get(doc.components ?? {}, 'securitySchemes');
  return requirements.flatMap((requirement) =>
    Object.keys(requirement).flatMap((name) => {
      const scheme: unknown = typeof schemes === 'object' && schemes !== null ? Reflect.get(schemes, name) : undefined;
      const type: unknown = typeof scheme === 'object' && scheme !== null ? Reflect.get(scheme, 'type') : undefined;
      const written: unknown = typeof scheme === 'object' && scheme !== null ? Reflect.get(scheme, 'scheme') : undefined;
      // The scheme as RFC 6750 writes it in a challenge: `Bearer`.
      return type === 'http' && typeof written === 'string' ? [written.charAt(0).toUpperCase() + written.slice(1).toLowerCase()] : [];
    }),
  );
}

function documentedBy(doc: OpenApiDocument): Documented {
  const operations = operationsOf(doc);
  const global: unknown = Reflect.get(doc, 'security');
  return {
    headers: new Map(
      operations.map(({ operationId, operation }) => [
        operationId,
        new Map(
          Object.entries(operation.responses).map(([status, reference]) => [
            Number(status),
            new Set(Object.keys(resolve(doc, reference).headers ?? {}).map((name) => name.toLowerCase())),
          ]),
        ),
      ]),
    ),
    challenges: new Map(
      operations.map(({ operationId, operation }) => [operationId, challengesOf(doc, operation.security ?? (Array.isArray(global) ? global : []))]),
    ),
  };
}

const DOCUMENTED = documentedBy(openapi);

/** The operation's challenge when the deployment's first one is of its scheme (`Bearer realm=...` gives `Bearer`), else none. */
function challenge(value: string, schemes: readonly string[]): string | undefined {
  const scheme = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)/.exec(value)?.[1]?.toLowerCase();
  return schemes.find((known) => known.toLowerCase() === scheme);
}

/** The value of one field as relayed, or `undefined` when it is not: by the rules above. */
function relayedValue(
  name: string,
  value: string,
  answer: { readonly operationId: OperationId | undefined; readonly status: number },
  rebase: (reference: string) => string | undefined,
): string | undefined {
  if (value.length > MAX_RELAYED_FIELD_CHARS) return undefined;
  const { operationId, status } = answer;
  const documented = operationId !== undefined && DOCUMENTED.headers.get(operationId)?.get(status)?.has(name) === true;
  if (!documented) return REPRESENTATION_FIELDS.has(name) ? value : undefined;
  if (name === 'www-authenticate') return challenge(value, DOCUMENTED.challenges.get(operationId) ?? []);
  // Held to its own schema alone: the others the response lacks are the conformance check's to report.
  const problems = RESPONSE_SCHEMAS.headerViolations(operationId, status, { [name]: value }) ?? [];
  if (problems.some((problem) => problem.instancePath === `/${name}`)) return undefined;
  if (REFERENCE_FIELDS.has(name)) return rebase(value);
  return name === 'link' ? proxiedLinks(value, rebase) : value;
}

/**
 * The deployment's response headers as the proxy relays them for an answer of `operationId` (none on
 * an unknown path) with `status`, each value passed through `hide` (which takes out a key the
 * deployment echoed), its URI references through `rebase` (`proxiedReference`), with the mock's CORS
 * and what makes the answer data.
 * @example
 * relayedHeaders(new Headers({ 'content-type': 'text/html', nel: '{}' }), { operationId: 'getPet', status: 404 }, (v) => v, () => undefined);
 * // { 'content-type': 'text/html', 'access-control-allow-origin': '*', ..., 'content-security-policy': 'sandbox' }
 */
export function relayedHeaders(
  upstream: Headers,
  answer: { readonly operationId: OperationId | undefined; readonly status: number },
  hide: (value: string) => string,
  rebase: (reference: string) => string | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {};
  upstream.forEach((value, name) => {
    const shown = relayedValue(name, value, answer, rebase);
    if (shown !== undefined) headers[name] = hide(shown);
  });
  return { ...headers, ...CORS_HEADERS, ...AS_DATA };
}
