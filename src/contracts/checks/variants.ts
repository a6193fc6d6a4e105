/**
 * Request variation, derived from the standards and the spec's schemas, in one place: each variant of
 * a request a client may send, the rule it applies (an RFC's section, a schema keyword), and how a
 * deployment must answer it, compared with the same request as a client plainly spells it:
 * - `alike`: the same class of status, for the rule makes the two the same request;
 * - `refuse`: a 4xx (a given one when the interface names it), for the rule makes it no request the
 *   interface takes: no credential, no JSON, not of the schema;
 * - `either`: anything but a server error, where the rule leaves the answer to the server.
 * Whatever the rule, a 5xx or a dropped connection is a breach: a crash on a request a client may send
 * is never allowed (variation.ts judges it).
 */
import type { JsonSchema } from '../../openapi/document.js';
import { objectText } from '../body-breakages.js';
import { KEY_PLACEHOLDER } from '../http.js';

type Expectation = 'alike' | 'refuse' | 'either';

/** A request of an operation as a client plainly sends it: a body as each field's exact JSON text, in order. */
export interface PlainRequest {
  readonly fields?: Readonly<Record<string, string>>;
}

/** What a variant changes in the plain request. */
export interface Change {
  /** Headers by lower-case name; `null` sends none of that name. */
  readonly headers?: Readonly<Record<string, string | null>>;
  /** The whole body, as sent. */
  readonly body?: string;
  readonly contentType?: string;
  /** The `Authorization` header as sent, `KEY_PLACEHOLDER` standing for the key. */
  readonly authorization?: string;
  /** A query the request-target gets, as sent: only for a variant that need not conform. */
  readonly query?: string;
}

export interface Variant {
  /** What the variant sends, as a report names it: `Accept: *\/*`. */
  readonly what: string;
  /** The rule it applies, and where it is written. */
  readonly rule: string;
  readonly expect: Expectation;
  /** The status a refusal must have, when the interface names one. */
  readonly status?: number;
  /**
   * False where the rule lets a deployment answer otherwise than the spec describes (`return=minimal`
   * may leave the body out, `406` answers an Accept nothing meets): then only the status is judged.
   */
  readonly conforms?: boolean;
  /**
   * Why a departure from the rule is advice (`--strict`), not a failure: the default of a mainstream
   * framework departs from it, and the interface does not spell the rule out.
   */
  readonly advisory?: string;
  /** The changed request, or undefined when the variant does not apply to it (a body variant of a request with none). */
  change(plain: PlainRequest): Change | undefined;
}

const always = (change: Change) => (): Change => change;

/** RFC 9110 §12.5.1: what a client accepts. JSON must stay acceptable whichever way it says so. */
const NEGOTIATION: readonly Variant[] = [
  {
    what: 'no Accept header',
    rule: 'RFC 9110 §12.5.1: a request without Accept accepts any media type',
    expect: 'alike',
    change: always({ headers: { accept: null } }),
  },
  { what: 'Accept: */*', rule: 'RFC 9110 §12.5.1: */* accepts any media type', expect: 'alike', change: always({ headers: { accept: '*/*' } }) },
  {
    what: 'Accept: application/*',
    rule: 'RFC 9110 §12.5.1: application/* accepts every application type, JSON among them',
    expect: 'alike',
    change: always({ headers: { accept: 'application/*' } }),
  },
  {
    what: 'Accept: application/json;q=0.9, text/html;q=0.1',
    rule: 'RFC 9110 §12.4.2 and §12.5.1: weights order what is acceptable, and JSON is',
    expect: 'alike',
    change: always({ headers: { accept: 'application/json;q=0.9, text/html;q=0.1' } }),
  },
  {
    what: 'Accept: Application/JSON',
    rule: 'RFC 9110 §8.3.1: a media type’s type and subtype are case-insensitive',
    expect: 'alike',
    change: always({ headers: { accept: 'Application/JSON' } }),
  },
  {
    what: 'Accept: text/html',
    rule: 'RFC 9110 §12.5.1: when nothing acceptable can be sent, the server answers 406 or disregards Accept',
    expect: 'either',
    conforms: false,
    change: always({ headers: { accept: 'text/html' } }),
  },
];

/** RFC 7240 §2: a server MUST ignore a preference it does not know or cannot honour, and go on. */
const PREFERENCES: readonly Variant[] = [
  {
    what: 'Prefer: return=minimal',
    rule: 'RFC 7240 §2 and §4.2: a preference the server does not honour is ignored; honoured, it may leave the body out',
    expect: 'alike',
    conforms: false,
    change: always({ headers: { prefer: 'return=minimal' } }),
  },
  {
    what: 'Prefer: handling=lenient',
    rule: 'RFC 7240 §2 and §4.4: a preference the server does not honour is ignored',
    expect: 'alike',
    change: always({ headers: { prefer: 'handling=lenient' } }),
  },
  {
    what: 'Prefer: petstore-verify-unknown=1',
    rule: 'RFC 7240 §2: a preference the server does not know MUST be ignored',
    expect: 'alike',
    change: always({ headers: { prefer: 'petstore-verify-unknown=1' } }),
  },
];

/** RFC 9110 §10.1: context a client may add to any request, which makes it no other request. */
const CONTEXT: readonly Variant[] = [
  {
    what: 'Referer: https://another-site.example/page',
    rule: 'RFC 9110 §10.1.3: Referer only says where the client found the URI, and a client may leave it out; refusing a request for it guards credentials a browser sends by itself (cookies), and the interface’s only credential, a bearer key, is none',
    expect: 'alike',
    change: always({ headers: { referer: 'https://another-site.example/page' } }),
  },
  {
    what: 'a query parameter the spec does not document, named __proto__',
    rule: 'RFC 3986 §3.4: the query is the server’s to read, so a parameter the spec does not name may be ignored or refused; a name a JavaScript object or a framework’s own prefix treats apart (`__proto__`, a leading `_`) is still only a name',
    expect: 'either',
    conforms: false,
    change: always({ query: '__proto__=petstore-verify' }),
  },
];

/** RFC 9110 §11: credentials, and the interface's 401 for a missing or invalid key. */
const CREDENTIALS: readonly Variant[] = [
  {
    what: 'an empty Authorization header',
    rule: 'RFC 9110 §11.6.2: an empty Authorization carries no credentials, and the interface answers a missing key with 401',
    expect: 'refuse',
    status: 401,
    change: always({ authorization: '' }),
  },
  {
    what: 'the key under the scheme spelt "bearer"',
    rule: 'RFC 9110 §11.1: an authentication scheme is a case-insensitive token',
    expect: 'alike',
    advisory: 'Rails’ token authentication matches "Bearer" as written, and the interface writes it so',
    change: always({ authorization: `bearer ${KEY_PLACEHOLDER}` }),
  },
  // Schemes of other lengths too, so that a check of the scheme by its length alone is seen.
  ...['Basic', 'Digest', 'Token'].map(
    (scheme): Variant => ({
      what: `the key under the scheme ${scheme}`,
      rule: 'RFC 6750 §2.1 and RFC 9110 §11.4: the key is a credential of the Bearer scheme, which the interface names; under another scheme it is none',
      expect: 'refuse',
      change: always({ authorization: `${scheme} ${KEY_PLACEHOLDER}` }),
    }),
  ),
];

/** RFC 9110 §8.3: the media type of a request body, in any spelling the RFC makes the same. */
const MEDIA_TYPES: readonly Variant[] = [
  ['Application/JSON; charset=utf-8', 'RFC 9110 §8.3.1 and §8.3.2: type, subtype, parameter names and the charset value are case-insensitive'],
  ['application/json;charset=UTF-8', 'RFC 9110 §5.6.6 and §8.3.2: whitespace around ";" is optional, and the charset value is case-insensitive'],
  ['application/json ; charset="utf-8"', 'RFC 9110 §5.6.6: whitespace before ";" is allowed, and a quoted parameter value is the same value'],
].map(([contentType, rule]) => ({
  what: `Content-Type: ${contentType}`,
  rule: rule as string,
  expect: 'alike' as const,
  change: ({ fields }: PlainRequest) => (fields ? { contentType: contentType as string } : undefined),
}));

type Fields = Readonly<Record<string, string>>;

/** A body variant: applies to requests with a body, `text` making the whole body from its fields. */
function body(what: string, rule: string, expect: Expectation, text: (fields: Fields) => string | undefined, advisory?: string): Variant {
  return {
    what,
    rule,
    expect,
    ...(advisory === undefined ? {} : { advisory }),
    // Only a body the rule leaves to the server (a byte order mark, a name twice) may get a body the spec does not describe.
    ...(expect === 'either' ? { conforms: false } : {}),
    change: ({ fields }) => {
      const made = fields && text(fields);
      return made === undefined ? undefined : { body: made };
    },
  };
}

/** The first field whose JSON text is a string, or an integer. */
function firstOf(fields: Fields, kind: 'string' | 'integer'): [string, string] | undefined {
  return Object.entries(fields).find(([, text]) => (kind === 'string' ? text.startsWith('"') : /^-?\d+$/.test(text)));
}

function withField(fields: Fields, kind: 'string' | 'integer', value: (text: string) => string): string | undefined {
  const field = firstOf(fields, kind);
  return field && objectText({ ...fields, [field[0]]: value(field[1]) });
}

/**
 * Why taking a text that is no JSON is advice, not a failure: RFC 8259 §9 lets a parser accept non-JSON
 * forms and extensions, and mainstream ones do (Ruby's JSON reads comments, Python's NaN), where the
 * interface says only that bodies are JSON.
 */
const PARSER_EXTENSION = 'RFC 8259 §9: a JSON parser MAY accept non-JSON forms or extensions (Ruby’s JSON reads comments, Python’s NaN)';

/** The size of the string in the oversized body: with the rest of the body, just over 1 MiB. */
const OVERSIZED_BYTES = 1024 * 1024;

/** RFC 8259: what is one JSON text (the same request, however spaced, ordered or escaped), and what is none. */
const JSON_TEXTS: readonly Variant[] = [
  body(
    'whitespace around and between its tokens',
    'RFC 8259 §2: whitespace is allowed before or after any structural character',
    'alike',
    (fields) =>
      `\r\n {\n\t${Object.entries(fields)
        .map(([name, value]) => `${JSON.stringify(name)} : ${value}`)
        .join(' ,\n\t')}\n} \n`,
  ),
  body('its members in another order', 'RFC 8259 §4: an object is an unordered collection of members', 'alike', (fields) =>
    objectText(Object.fromEntries(Object.entries(fields).reverse())),
  ),
  body('a string with escapes (\\u0065 for e, \\/ for /)', 'RFC 8259 §7: an escape stands for the character it names', 'alike', (fields) =>
    withField(fields, 'string', (text) => `${text.slice(0, -1).replaceAll('e', '\\u0065')}\\/"`),
  ),
  body('text after the JSON value', 'RFC 8259 §2: a JSON text is one value', 'refuse', (fields) => `${objectText(fields)} petstore-verify`, PARSER_EXTENSION),
  body(
    'single-quoted strings',
    'RFC 8259 §7: a string begins and ends with a quotation mark',
    'refuse',
    (fields) => objectText(fields).replaceAll('"', "'"),
    PARSER_EXTENSION,
  ),
  body(
    'a trailing comma',
    'RFC 8259 §4: members are separated by commas, none after the last',
    'refuse',
    (fields) => `${objectText(fields).slice(0, -1)},}`,
    PARSER_EXTENSION,
  ),
  body(
    'a member name without quotes',
    'RFC 8259 §4: a name is a string',
    'refuse',
    (fields) => objectText(fields).replace(/^\{"([^"]+)"/, '{$1'),
    PARSER_EXTENSION,
  ),
  body('a comment', 'RFC 8259 §2: JSON has no comments', 'refuse', (fields) => `/* petstore-verify */ ${objectText(fields)}`, PARSER_EXTENSION),
  body(
    'an integer with a leading zero',
    'RFC 8259 §6: an integer has no leading zero',
    'refuse',
    (fields) => withField(fields, 'integer', (text) => text.replace(/^(-?)/, '$10')),
    PARSER_EXTENSION,
  ),
  body(
    'NaN for a number',
    'RFC 8259 §6: NaN and Infinity are no JSON numbers',
    'refuse',
    (fields) => withField(fields, 'integer', () => 'NaN'),
    PARSER_EXTENSION,
  ),
  body('no body at all', 'RFC 8259 §2: a JSON text is a value, and the spec requires the body', 'refuse', () => ''),
  body('the JSON text null', 'the schema’s type object: null is JSON (RFC 8259 §3) but no object', 'refuse', () => 'null'),
  body('an array holding the object', 'the schema’s type object: an array is no object', 'refuse', (fields) => `[${objectText(fields)}]`),
  body(
    'a byte order mark before it',
    'RFC 8259 §8.1: a parser MAY ignore a byte order mark rather than treat it as an error',
    'either',
    (fields) => `\uFEFF${objectText(fields)}`,
  ),
  body('a member name twice', 'RFC 8259 §4: names SHOULD be unique; what a parser does with one twice is left open', 'either', (fields) => {
    const field = firstOf(fields, 'string');
    return field && `{${JSON.stringify(field[0])}:"petstore-verify first",${objectText(fields).slice(1)}`;
  }),
  // Past the limits servers set by default (Express 100 kB, nginx 1 MiB), so that the path that refuses a body for its size runs.
  body('a body over 1 MiB', 'RFC 9110 §15.5.14: a server may refuse content larger than it is willing to process (413), or take it', 'either', (fields) =>
    withField(fields, 'string', () => JSON.stringify('x'.repeat(OVERSIZED_BYTES))),
  ),
];

/** What the schema of a request body says of member names: compared exactly, and those it does not name. */
export interface BodySchemaView {
  readonly required: readonly string[];
  /** The body schema's `additionalProperties`, when it says anything. */
  readonly additionalProperties: JsonSchema | boolean | undefined;
  /** The media types the spec declares for the body (`requestBody.content`), lower case. */
  readonly mediaTypes: readonly string[];
}

/**
 * The media types a page on any origin may send without a CORS preflight (the Fetch standard's
 * CORS-safelisted Content-Type values): a body declared as one of them is no JSON body, and a deployment
 * that reads it as JSON anyway takes a request another site's page can forge.
 */
// multipart/form-data is safelisted too, but a JSON text is no multipart body: a form parser in front of the
// service (Rack's) refuses it as malformed before the service sees it, which says nothing of the service.
const SAFELISTED_MEDIA_TYPES = ['text/plain', 'application/x-www-form-urlencoded'];

/** A body declared as a media type the spec does not declare for it: RFC 9110 §8.3 and the spec's 415. */
function undeclaredMediaTypes(schema: BodySchemaView): Variant[] {
  return SAFELISTED_MEDIA_TYPES.filter((type) => !schema.mediaTypes.includes(type.split(';')[0] as string)).map((contentType) => ({
    what: `the JSON body declared as Content-Type: ${contentType}`,
    rule: `RFC 9110 §8.3: Content-Type says what the body is, and the spec declares the body as ${schema.mediaTypes.join(', ')} only, so a body declared otherwise is none the operation takes (415, or 400); reading it as JSON anyway takes a request a page on another site can send without a preflight (the Fetch standard's CORS-safelisted types)`,
    expect: 'refuse' as const,
    change: ({ fields }: PlainRequest) => (fields ? { contentType } : undefined),
  }));
}

/** The name in another case: capitalised, or upper case when that changes nothing. */
function otherCase(name: string): string {
  const capital = `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
  return capital !== name ? capital : name.toUpperCase();
}

/** Variants the body's schema implies: a required member spelt in another case is missing; one the schema does not name is allowed or not by `additionalProperties`. */
function schemaVariants(schema: BodySchemaView): Variant[] {
  const variants = schema.required
    .filter((name) => otherCase(name) !== name)
    .map((name) =>
      body(
        `the required member ${name} spelt ${otherCase(name)}`,
        'JSON Schema required: member names are compared exactly (RFC 8259 §8.3)',
        'refuse',
        (fields) =>
          name in fields
            ? objectText(Object.fromEntries(Object.entries(fields).map(([field, value]) => [field === name ? otherCase(name) : field, value])))
            : undefined,
      ),
    )
    .map((variant): Variant => ({ ...variant, advisory: 'Go’s encoding/json and ASP.NET Core match member names ignoring case by default' }));
  // additionalProperties absent or true allows any other member: the body stays valid, and the spec's 400 is
  // for a body missing a required field or holding an invalid value. A schema of its own leaves it to the value.
  const { additionalProperties: additional } = schema;
  const expect: Expectation = additional === false ? 'refuse' : additional === undefined || additional === true ? 'alike' : 'either';
  variants.push(
    body(
      'a member the schema does not name',
      expect === 'refuse'
        ? 'JSON Schema additionalProperties: false refuses a member the schema does not name'
        : expect === 'alike'
          ? 'JSON Schema additionalProperties: absent, so a member the schema does not name is allowed and the body is valid; the spec answers 400 only for a missing required field or an invalid value'
          : 'JSON Schema additionalProperties: a schema of its own decides whether another member is allowed',
      expect,
      (fields) => objectText({ ...fields, petstoreVerifyUnknown: 'true' }),
    ),
  );
  return [...variants, ...undeclaredMediaTypes(schema)];
}

/** Every variant of a request: those of any request, and those of a JSON body (RFC 8259 and its schema). */
export function variantsOf(schema: BodySchemaView | undefined): Variant[] {
  return [...NEGOTIATION, ...PREFERENCES, ...CONTEXT, ...CREDENTIALS, ...MEDIA_TYPES, ...(schema ? [...JSON_TEXTS, ...schemaVariants(schema)] : [])];
}

/** A method on a documented path, the rule it applies: whatever the answer, never a server error. */
export interface MethodVariant {
  readonly method: string;
  readonly rule: string;
  /** True for a method that is not safe (RFC 9110 §9.2.1): sent only to an item no one has, and never under --read-only. */
  readonly unsafe?: boolean;
  /** Headers it is sent with. */
  readonly headers?: Readonly<Record<string, string>>;
  /** True when it is sent without a credential, as a browser sends a preflight. */
  readonly anonymous?: true;
}

export const METHOD_VARIANTS: readonly MethodVariant[] = [
  { method: 'OPTIONS', rule: 'RFC 9110 §9.3.7: OPTIONS asks what the resource supports; 2xx, 401, 404 or 405 all say something' },
  {
    method: 'OPTIONS',
    rule: 'the Fetch standard’s CORS preflight, which a browser sends without a credential before a request with one',
    headers: {
      origin: 'https://petstore-verify.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    },
    anonymous: true,
  },
  { method: 'HEAD', rule: 'RFC 9110 §9.3.2: HEAD is GET without the body; a server that does not serve it says 405' },
  { method: 'DELETE', rule: 'RFC 9110 §15.5.6: a method the resource does not support is 405 (or 404)', unsafe: true },
];
