/**
 * The shadow: the mock beside the proxy, sent every request the deployment is sent, in the same state,
 * so that their responses can be compared. It starts empty and mirrors every pet the deployment shows
 * (listed, read, created), remembering which of its ids stands for which of the deployment's; a read of
 * an id the deployment never showed asks the shadow for an id it has not (0).
 */
import { isJsonObject, type JsonValue } from '../../json/lossless.js';
import { PET_STATUSES } from '../../openapi/facts.js';
import { known, type ListOrder, type ProfileDocument } from '../../profile/profile.js';
import type { MockRequest, MockResponse } from '../core/messages.js';
import { createMockApi, type MockApi } from '../create-mock-api.js';
import type { Exchange } from './context.js';
import { parsedBody } from './json-body.js';

/** The shadow's own key: it never leaves the process. */
const SHADOW_KEY = 'petstore-proxy-shadow-key';

export interface Shadow {
  readonly mock: MockApi;
  /** The shadow's id of each deployment id it was shown. */
  readonly ids: Map<string, string>;
  /** The order the shadow lists pets in: the profile's, else the mock's own. */
  readonly listOrder: ListOrder;
}

/** The shadow's response to one exchange, with its body parsed. */
export interface ShadowResponse {
  readonly response: MockResponse;
  readonly json: JsonValue | undefined;
}

export function createShadow(profile: ProfileDocument | undefined): Shadow {
  // No journal: the shadow's requests are the proxy's rewrites, and what a client sent is not among them.
  const mock = createMockApi({ count: 0, apiKey: SHADOW_KEY, prefer: false, journalSize: 0, ...(profile === undefined ? {} : { profile }) });
  const { listOrder } = mock.options.profile;
  return { mock, ids: new Map(), listOrder: known(listOrder) ? listOrder : 'id-asc' };
}

/** A request the shadow (or the input checks) parses: its method, target, these headers and this body. */
export function textRequest(method: string, target: string, body: string, headers: Readonly<Record<string, string>>): MockRequest {
  return { method, target, header: (name) => headers[name], text: async (maxBytes) => (Buffer.byteLength(body) > maxBytes ? undefined : body) };
}

/**
 * Remembers a pet the deployment showed: as `shadowId` when the shadow has just created it for the same
 * request, else as a new pet of the shadow with the same fields. A pet already known, or not a pet, is left alone.
 */
function mirrorPet(shadow: Shadow, pet: JsonValue | undefined, shadowId?: string): void {
  if (!isJsonObject(pet)) return;
  const id = String(pet.id);
  if (shadow.ids.has(id)) return;
  if (shadowId !== undefined) {
    shadow.ids.set(id, shadowId);
    return;
  }
  const { name, categoryId, status } = pet;
  if (typeof name !== 'string' || (typeof categoryId !== 'number' && typeof categoryId !== 'bigint')) return;
  const draft = { name, categoryId, status: PET_STATUSES.find((known) => known === status) };
  const created = shadow.mock.store.create(draft);
  // The memory store creates at once; a promise would be a store this proxy does not make.
  if (!(created instanceof Promise)) shadow.ids.set(id, String(created.id));
}

/** The exchange's target for the shadow: a pet id the deployment showed becomes the shadow's, an id never shown 0. */
function shadowTarget(shadow: Shadow, { operationId, target }: Exchange): string {
  if (operationId !== 'getPet') return target;
  return target.replace(/\/pets\/([^/?]+)/, (whole, id: string) => (/^-?\d+$/.test(id) ? `/pets/${shadow.ids.get(id) ?? '0'}` : whole));
}

/** The shadow's response to the exchange's request, mirroring the pets the deployment's response shows. */
export async function shadowResponse(shadow: Shadow, exchange: Exchange): Promise<ShadowResponse> {
  const { operationId, upstream, upstreamJson } = exchange;
  const contentType = exchange.headers['content-type'];
  // The target is mapped with the ids known before this response: a pet first shown by this read is still one the shadow has not.
  const target = shadowTarget(shadow, exchange);
  if (upstream.status === 200 && operationId === 'getPet') mirrorPet(shadow, upstreamJson);
  const response = await shadow.mock.respond(
    textRequest(exchange.method, target, exchange.body, {
      ...(upstream.status === 401 ? {} : { authorization: `Bearer ${SHADOW_KEY}` }),
      ...(contentType === undefined ? {} : { 'content-type': contentType }),
    }),
  );
  const json = parsedBody(response.body);
  if (operationId === 'createPet' && upstream.status === 201 && response.status === 201 && isJsonObject(json)) mirrorPet(shadow, upstreamJson, String(json.id));
  if (operationId === 'listPets' && Array.isArray(upstreamJson)) for (const pet of upstreamJson) mirrorPet(shadow, pet);
  return { response, json };
}
