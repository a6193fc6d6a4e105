import { MAX_RESPONSE_BYTES } from '../bounds/budget.js';
import { LONGEST_WAIT_MS, wholeNumberIn } from '../bounds/option-value.js';
import { checkKeyOption } from '../http/header-value.js';
import { readLimited } from '../http/read-limited.js';
import { parseUserUrl } from '../http/user-url.js';
import { INTEGER_SPELLING } from '../json/int64.js';
import { MAX_JSON_NUMBER_CHARS, outlineJsonText } from '../json/json-text.js';
import { MAX_JSON_DEPTH } from '../json/lossless.js';
import { KeyRedactor } from '../redact/key-redactor.js';
import { excerpt, shortened } from '../terminal/excerpt-text.js';
import { terminalText } from '../terminal/terminal-text.js';
import type { ApiError as ErrorBody, NewPet, Pet, PetStatus } from '../types.js';

export type { ErrorBody, NewPet, Pet, PetStatus };

/** How a client reaches the API. */
export interface ClientOptions {
  /** The API's base URL, with its version prefix: `https://api.petstore.example/v1`. */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>`; omit it to send no credential. */
  readonly apiKey?: string;
  /** A `fetch` to use instead of the global one (a test double, an instrumented fetch). */
  readonly fetch?: typeof fetch;
  /**
   * The most milliseconds one call may take, its whole answer read: a server that trickles or never
   * ends its answer rejects the call then. A whole number from 1 to 86,400,000 (a day). Default: 10,000.
   */
  readonly timeout?: number;
}

/** How long one call may take, its answer read, when `timeout` does not say: as long as `expectRequests`'s read. */
const CALL_TIMEOUT_MS = 10_000;

export interface ListPetsQuery {
  /** The page size, within the bounds spec/openapi.yaml gives `limit`; without it, the API's default page. */
  readonly limit?: number;
  readonly status?: PetStatus;
}

/**
 * The API answered with an error. `body` is the spec's Error (`code`, `message`, `status`), as it came; a
 * response that is not one still becomes an `ApiError`, with a body describing what came back. The
 * `message` shows the server's words with the characters a terminal acts on escaped and long runs cut
 * (`\u001b[2J`, `… (3000000 characters)`); the client's own key is hidden as `***`, in any form, in
 * `url` and in every field of `body` (a server may quote the request back), before any excerpt is cut.
 * @example
 * try {
 *   await client.getPet(404404);
 * } catch (error) {
 *   if (error instanceof ApiError && error.status === 404) showNotFound();
 *   else throw error;
 * }
 */
export class ApiError extends Error {
  override readonly name = 'ApiError' as const;
  /** The HTTP status. */
  readonly status: number;
  readonly body: ErrorBody;

  constructor(
    readonly method: string,
    readonly url: string,
    body: ErrorBody,
  ) {
    // Shown where a test fails, on a terminal: the server's words escaped and cut, as the verifier shows a deployment's.
    super(`${method} ${terminalText(excerpt(url))} answered ${body.status} ${terminalText(excerpt(body.code))}: ${terminalText(shortened(body.message))}`);
    this.status = body.status;
    this.body = body;
  }
}

/** The fields of the spec's Error, each with its JSON type. */
const ERROR_FIELDS = { code: 'string', message: 'string', status: 'number' };

function isErrorBody(value: unknown): value is ErrorBody {
  return typeof value === 'object' && value !== null && Object.entries(ERROR_FIELDS).every(([name, type]) => typeof Reflect.get(value, name) === type);
}

/**
 * The answer to one call as text, read within `timeout` and `MAX_RESPONSE_BYTES` (5 MiB, more than a
 * page of 100 pets of the spec holds), the bound of every answer the package reads: an endless answer
 * once grew a client to 3 GB, and a trickling one kept a call pending for ever.
 */
async function answer(
  send: typeof fetch,
  timeout: number,
  method: string,
  url: string,
  hidden: (text: string) => string,
  init: RequestInit,
): Promise<{ response: Response; text: string }> {
  let response: Response;
  let text: string | undefined;
  const late = () => new Error(`${method} ${hidden(url)} did not answer whole within ${timeout} ms (raise it with createClient({ timeout }))`);
  // One timer rejects the call and aborts its request: the abort ends a read of the body, and the
  // rejection a `fetch` option that does not pass the signal on (a wrapper that logs), which would wait for ever.
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const overdue = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(late());
      controller.abort();
    }, timeout);
  });
  try {
    const read = async () => {
      const answered = await send(url, { ...init, signal: controller.signal });
      return { answered, body: await readLimited(answered.body, MAX_RESPONSE_BYTES) };
    };
    const { answered, body } = await Promise.race([read(), overdue]);
    [response, text] = [answered, body];
  } catch (error) {
    if (error instanceof Error) error.message = hidden(error.message);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  if (text === undefined) throw new Error(`${method} ${hidden(url)} answered more than ${MAX_RESPONSE_BYTES} bytes, which no answer of this API holds`);
  return { response, text };
}

/** A typed client of the pet store API, as a front-end would use it. */
export interface PetstoreClient {
  /** `GET /pets`: a page of pets, at most `limit`, optionally of one status. */
  listPets(query?: ListPetsQuery): Promise<Pet[]>;
  /** `POST /pets`: adds a pet and returns it with its assigned id. */
  createPet(pet: NewPet): Promise<Pet>;
  /**
   * `GET /pets/{petId}`: one pet.
   * @deprecated Removed on 5 December 2030; use `listPets` with the status filter.
   */
  getPet(petId: number | string): Promise<Pet>;
}

/**
 * `baseUrl` as `createClient` takes it: a path on the page's own origin (`/v1`), or an absolute URL
 * held to the rule of every URL a user gives (`parseUserUrl`: http or https, a host RFC 1123 allows).
 */
function checkedBaseUrl(baseUrl: unknown): string {
  const example = 'https://staging.example.com/v1, or a path such as /v1';
  if (typeof baseUrl !== 'string')
    throw new TypeError(`createClient: baseUrl must be a URL such as ${example}; got a value of type ${baseUrl === null ? 'null' : typeof baseUrl}`);
  if (!baseUrl.startsWith('/')) parseUserUrl(baseUrl, { name: 'createClient: baseUrl', schemes: ['http:', 'https:'], example });
  return baseUrl;
}

/**
 * A pet's id as the path writes it: an integer in its one spelling (`INTEGER_SPELLING`, as the mock reads it), as a
 * number, a bigint or digits; anything else (`'..'` would have left the path for the list's) is refused.
 */
function idText(petId: unknown): string {
  const text =
    typeof petId === 'number' && Number.isSafeInteger(petId) && !Object.is(petId, -0)
      ? String(petId)
      : typeof petId === 'bigint' || typeof petId === 'string'
        ? String(petId)
        : '';
  if (!INTEGER_SPELLING.test(text))
    throw new TypeError(
      `getPet: petId must be an integer such as 42 (a number, a bigint or its digits); got ${typeof petId === 'string' ? JSON.stringify(petId.slice(0, 40)) : String(petId)}`,
    );
  return text;
}

/**
 * Creates a client. Every method resolves with the typed body of a success and rejects with an
 * `ApiError` carrying the Error body otherwise.
 * @example
 * import { createClient } from 'petstore-mock/client';
 * const client = createClient({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'petstore-dev-key' });
 * const sold = await client.listPets({ status: 'sold', limit: 5 });
 * const rex = await client.createPet({ name: 'Rex', categoryId: 3 });
 */
export function createClient(options: ClientOptions): PetstoreClient {
  const baseUrl = checkedBaseUrl(options?.baseUrl).replace(/\/+$/, '');
  checkKeyOption('createClient: apiKey', options.apiKey);
  const send = options.fetch ?? fetch;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.apiKey !== undefined) headers.authorization = `Bearer ${options.apiKey}`;

  const timeout = wholeNumberIn('createClient: timeout', options.timeout, [1, LONGEST_WAIT_MS], CALL_TIMEOUT_MS);
  // Every error the client makes is shown where a test fails: its own key hidden there in any form, in
  // the URL it called (a key in baseUrl's path or a query) and in what the server quoted back; a short
  // key only as a token of its own, as the mock's CLI hides it, lest every `k` of a message go.
  const redactor = options.apiKey === undefined || options.apiKey === '' ? undefined : new KeyRedactor([options.apiKey], { shortAsToken: true });
  const hidden = (text: string) => redactor?.text(text) ?? text;
  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const url = baseUrl + path;
    const { response, text } = await answer(send, timeout, method, url, hidden, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    // Read as every JSON the package reads: no deeper than 128 levels, no number longer than any of the spec.
    const outline = outlineJsonText(text);
    if (outline.depth > MAX_JSON_DEPTH || outline.overlongNumber !== undefined)
      throw new Error(
        `${method} ${hidden(url)} answered ${response.status} with JSON ${outline.overlongNumber === undefined ? `nested ${outline.depth} levels deep (at most ${MAX_JSON_DEPTH})` : `holding a number of ${outline.overlongNumber.length} characters (at most ${MAX_JSON_NUMBER_CHARS})`}, which no answer of this API holds`,
      );
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    // The server's schema types a 2xx body; the client trusts its own API (the verifier is what checks it).
    if (response.ok) return parsed as T;
    // The answer as the error quotes it: the key hidden by the redactor's rule for a body (every string of
    // JSON, any other text whole), before any excerpt is cut and in every field, not only code and message:
    // a key across the cut showed its first half, and a test runner prints an error's own properties (red team 14 #5).
    const shown = redactor?.body(text, parsed !== undefined) ?? text;
    const quoted: unknown = shown === text ? parsed : parsed === undefined ? undefined : JSON.parse(shown);
    const error = isErrorBody(quoted) ? quoted : { code: 'unexpected_response', message: `not an Error body: ${shown.slice(0, 200)}`, status: response.status };
    throw new ApiError(method, hidden(url), error);
  }

  return {
    listPets(query = {}) {
      const search = new URLSearchParams();
      if (query.limit !== undefined)
        search.set('limit', String(wholeNumberIn('listPets: limit', query.limit, [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER], 0)));
      if (query.status !== undefined) search.set('status', query.status);
      const suffix = search.size > 0 ? `?${search}` : '';
      return request<Pet[]>('GET', `/pets${suffix}`);
    },
    createPet: (pet) => request<Pet>('POST', '/pets', pet),
    getPet: (petId) => request<Pet>('GET', `/pets/${idText(petId)}`),
  };
}
