/**
 * A corpus of requests, each tagged with the open choice it exercises, replayed against two
 * deployments; what each answered is compared on what the choice decides: status, Error code, order,
 * the status a new pet gets, the charset of JSON.
 */
import { type JsonValue, parseJson } from '../../src/json/lossless.js';
import { inOrder, type ListOrder, type Ordered } from '../../src/profile/profile.js';
import { FULL_PAGE, LIMIT } from './page-size.js';

/** The choices a profile records, as the corpus names them. */
export type ChoiceName =
  | 'limitOutOfRange'
  | 'limitNotInteger'
  | 'unknownStatus'
  | 'listOrder'
  | 'nonIntegerPetId'
  | 'defaultStatus'
  | 'categories'
  | 'errorCodes'
  | 'charset';

export interface Probe {
  readonly choice: ChoiceName;
  readonly method: 'GET' | 'POST';
  /** Under the base URL: `/pets?limit=0`. */
  readonly path: string;
  readonly body?: string;
  /** Without the key: a 401. */
  readonly anonymous?: boolean;
}

/** What a choice decides of one answer, as one comparable string. */
export interface Seen {
  readonly status: number;
  readonly code: string | undefined;
  /** For a create: the status the new pet got (`(none)` when it has none). */
  readonly petStatus: string | undefined;
  readonly charset: boolean;
  readonly pets: readonly Ordered[] | undefined;
}

/** The corpus; `category` is one the deployment accepts. */
export function corpus(category: string): Probe[] {
  return [
    { choice: 'limitOutOfRange', method: 'GET', path: `/pets?limit=${LIMIT.minimum - 1}` },
    { choice: 'limitOutOfRange', method: 'GET', path: `/pets?limit=${LIMIT.maximum + 1}` },
    { choice: 'limitNotInteger', method: 'GET', path: '/pets?limit=abc' },
    { choice: 'unknownStatus', method: 'GET', path: '/pets?status=lost' },
    { choice: 'listOrder', method: 'GET', path: `/pets?${FULL_PAGE}` },
    { choice: 'nonIntegerPetId', method: 'GET', path: '/pets/abc' },
    { choice: 'defaultStatus', method: 'POST', path: '/pets', body: `{"name":"Replayed","categoryId":${category}}` },
    { choice: 'categories', method: 'POST', path: '/pets', body: '{"name":"Replayed","categoryId":4242425,"status":"sold"}' },
    { choice: 'errorCodes', method: 'GET', path: '/pets', anonymous: true },
    { choice: 'errorCodes', method: 'GET', path: '/pets/8888888888888888' },
    { choice: 'errorCodes', method: 'POST', path: '/pets', body: '{"name":' },
    { choice: 'errorCodes', method: 'POST', path: '/pets', body: '{"name":1,"categoryId":1}' },
    { choice: 'charset', method: 'GET', path: '/pets?limit=1' },
  ];
}

function field(value: JsonValue | undefined, name: string): JsonValue | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value[name] : undefined;
}

/** Sends one probe to `baseUrl` and reads what its choice decides. */
export async function send(baseUrl: string, key: string, probe: Probe): Promise<Seen> {
  const headers: Record<string, string> = probe.anonymous ? {} : { authorization: `Bearer ${key}` };
  if (probe.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${baseUrl}${probe.path}`, { method: probe.method, headers, ...(probe.body === undefined ? {} : { body: probe.body }) });
  const text = await response.text();
  let json: JsonValue | undefined;
  try {
    json = parseJson(text);
  } catch {
    json = undefined;
  }
  const code = field(json, 'code');
  const petStatus = response.status === 201 ? field(json, 'status') : undefined;
  return {
    status: response.status,
    code: response.status >= 400 && typeof code === 'string' ? code : undefined,
    petStatus: response.status === 201 ? (typeof petStatus === 'string' ? petStatus : '(none)') : undefined,
    charset: /charset=/i.test(response.headers.get('content-type') ?? ''),
    pets: Array.isArray(json)
      ? json.map((pet) => {
          const status = field(pet, 'status');
          return { id: String(field(pet, 'id')), name: String(field(pet, 'name')), status: typeof status === 'string' ? status : undefined };
        })
      : undefined,
  };
}

const ORDERS: readonly ListOrder[] = ['id-asc', 'id-desc', 'name', 'status'];

/** The orders a page follows (a page of one follows them all). */
function ordersOf(pets: readonly Ordered[]): ListOrder[] {
  return ORDERS.filter((order) => inOrder(order, pets));
}

/** Where two answers differ, each difference under the choice that decides it: an Error code under `errorCodes`, a new pet's status under `defaultStatus`. */
export function disagreements(probe: Probe, a: Seen, b: Seen): { choice: ChoiceName; what: string }[] {
  const found: { choice: ChoiceName; what: string }[] = [];
  if (a.status !== b.status) found.push({ choice: probe.choice, what: `status ${a.status} vs ${b.status}` });
  else if (a.code !== b.code) found.push({ choice: 'errorCodes', what: `code ${a.code} vs ${b.code}` });
  if (a.status === b.status && a.petStatus !== b.petStatus) found.push({ choice: 'defaultStatus', what: `new pet's status ${a.petStatus} vs ${b.petStatus}` });
  if (a.charset !== b.charset) found.push({ choice: 'charset', what: `charset ${a.charset} vs ${b.charset}` });
  if (probe.choice === 'unknownStatus' && a.pets?.length !== b.pets?.length)
    found.push({ choice: 'unknownStatus', what: `${a.pets?.length} vs ${b.pets?.length} pets` });
  if (probe.choice === 'listOrder' && a.pets && b.pets) {
    const [x, y] = [ordersOf(a.pets), ordersOf(b.pets)];
    if (!x.some((order) => y.includes(order))) found.push({ choice: 'listOrder', what: `order ${x.join('|') || 'other'} vs ${y.join('|') || 'other'}` });
  }
  return found;
}
