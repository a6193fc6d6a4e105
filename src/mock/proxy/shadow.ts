/**
 * The shadow: the mock beside the proxy, sent every request the deployment is sent, in the same state,
 * so that their responses can be compared. It starts empty and mirrors every pet the deployment shows
 * (listed, read, created), remembering which of its ids stands for which of the deployment's; a read of
 * an id the deployment never showed asks the shadow for an id it has not (0).
 *
 * The mirror is bounded: it keeps at most the `MAX_MIRRORED_PETS` pets shown or asked for most recently,
 * and at most `MAX_MIRRORED_BYTES`; past either, the tenth used least recently leaves the shadow (a deployment
 * that lists 60,000 new pets on every read grew the proxy without end). A read of a pet that left is a
 * read of one the deployment never showed, until it shows it again.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../json/lossless.js';
import { BUNDLED_MODEL } from '../../openapi/bundled-model.js';
import type { ModelField } from '../../openapi/resource-model.js';
import { known, type ListOrder, type ProfileDocument } from '../../profile/profile.js';
import type { MockRequest, MockResponse } from '../core/messages.js';
import { createMockApi, type MockApi } from '../create-mock-api.js';
import type { PetDraft } from '../state/store.js';
import type { Exchange } from './context.js';
import { parsedBody } from './json-body.js';

/** The most pets the shadow mirrors: ten times the largest page the spec allows (100) a hundred times over. */
export const MAX_MIRRORED_PETS = 10_000;

/** The most bytes the mirror holds, counting each pet's id, free texts and the shadow's id at 2 bytes a character, and 100 for the rest. */
export const MAX_MIRRORED_BYTES = 8 * 1024 * 1024;

/** The shadow's own key: it never leaves the process. */
const SHADOW_KEY = 'petstore-proxy-shadow-key';

/** A pet the shadow mirrors: its id there, and what it counts against `MAX_MIRRORED_BYTES`. */
interface Mirrored {
  readonly shadowId: string;
  readonly bytes: number;
}

export interface Shadow {
  readonly mock: MockApi;
  /** The shadow's id of each deployment id it was shown, the one used least recently first. */
  readonly ids: Map<string, Mirrored>;
  /** The bytes the mirrored pets count. */
  bytes: number;
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
  return { mock, ids: new Map(), bytes: 0, listOrder: known(listOrder) ? listOrder : 'id-asc' };
}

/** The shadow's id of a deployment id it mirrors, which becomes the one used most recently; `undefined` when it mirrors none. */
function used(shadow: Shadow, id: string): string | undefined {
  const mirrored = shadow.ids.get(id);
  if (mirrored === undefined) return undefined;
  shadow.ids.delete(id);
  shadow.ids.set(id, mirrored);
  return mirrored.shadowId;
}

/** Remembers that the shadow's `shadowId` stands for the deployment's `id`, then lets the pets used least recently go until the mirror is within its bounds. */
function remember(shadow: Shadow, id: string, shadowId: string, pet: JsonObject): void {
  const texts = FREE_TEXTS.reduce((sum, name) => sum + String(typeof pet[name] === 'string' ? pet[name] : '').length, 0);
  const bytes = 2 * (id.length + shadowId.length + texts) + 100;
  shadow.ids.set(id, { shadowId, bytes });
  shadow.bytes += bytes;
  if (shadow.ids.size <= MAX_MIRRORED_PETS && shadow.bytes <= MAX_MIRRORED_BYTES) return;
  // A tenth goes at once, and the store is made again without them: a Map walked from its start passes
  // every entry deleted since it last grew, and the store's remove moves its lists, so one pet at a time
  // took seconds for a page of 60,000 new pets.
  const evicted = new Set<string>();
  for (const [oldest, mirrored] of shadow.ids) {
    if (shadow.ids.size <= MAX_MIRRORED_PETS * 0.9 && shadow.bytes <= MAX_MIRRORED_BYTES * 0.9) break;
    shadow.ids.delete(oldest);
    shadow.bytes -= mirrored.bytes;
    evicted.add(mirrored.shadowId);
  }
  // The memory store answers at once: its pets as a state file holds them, less those evicted.
  const saved = shadow.mock.store.saved();
  if (!(saved instanceof Promise)) void shadow.mock.store.restore({ ...saved, created: saved.created.filter((pet) => !evicted.has(String(pet.id))) });
}

/** A request the shadow (or the input checks) parses: its method, target, these headers and this body. */
export function textRequest(method: string, target: string, body: string, headers: Readonly<Record<string, string>>): MockRequest {
  return { method, target, header: (name) => headers[name], text: async (maxBytes) => (Buffer.byteLength(body) > maxBytes ? undefined : body) };
}

/** The fields a client sends, from the model; the free texts among them (no enum) count against `MAX_MIRRORED_BYTES`, and a recording redacts them. */
const WRITABLE = BUNDLED_MODEL.fields.filter((field) => field.writable);
export const FREE_TEXTS = WRITABLE.filter((field) => field.enum === undefined && field.schema.type === 'string').map((field) => field.name);

/** Whether `value` is one a field may hold, by its enum or its type: what the shadow may create with. */
function fits(field: ModelField, value: JsonValue | undefined): boolean {
  if (field.enum !== undefined) return field.enum.some((known) => known === value);
  if (field.schema.type === 'integer') return typeof value === 'bigint' || typeof value === 'number';
  return typeof value === field.schema.type;
}

/**
 * Remembers a pet the deployment showed: as `shadowId` when the shadow has just created it for the same
 * request, else as a new pet of the shadow with its writable fields (one that does not fit left out).
 * A pet already known, or not a pet, or without a field a create needs, is left alone.
 */
function mirrorPet(shadow: Shadow, pet: JsonValue | undefined, shadowId?: string): void {
  if (!isJsonObject(pet)) return;
  const id = String(pet[BUNDLED_MODEL.id.field]);
  if (used(shadow, id) !== undefined) return;
  let mirrored = shadowId;
  if (mirrored === undefined) {
    if (WRITABLE.some((field) => field.requiredOnCreate && !fits(field, pet[field.name]))) return;
    const draft = Object.fromEntries(WRITABLE.filter((field) => fits(field, pet[field.name])).map((field) => [field.name, pet[field.name]]));
    // The fields checked just above, by the model.
    const created = shadow.mock.store.create(draft as unknown as PetDraft);
    // The memory store creates at once; a promise would be a store this proxy does not make.
    if (created instanceof Promise) return;
    mirrored = String(created.id);
  }
  remember(shadow, id, mirrored, pet);
}

/** Where a read's item path holds the id: `/pets/{petId}` read as `/pets/(...)`. */
const ITEM_ID = new RegExp(`${BUNDLED_MODEL.collectionPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/([^/?]+)`);

/** The exchange's target for the shadow: a pet id the deployment showed becomes the shadow's, an id never shown 0. */
function shadowTarget(shadow: Shadow, { kind, target }: Exchange): string {
  if (kind !== 'read') return target;
  return target.replace(ITEM_ID, (whole, id: string) => (/^-?\d+$/.test(id) ? `${BUNDLED_MODEL.collectionPath}/${used(shadow, id) ?? '0'}` : whole));
}

/** The shadow's response to the exchange's request, mirroring the pets the deployment's response shows. */
export async function shadowResponse(shadow: Shadow, exchange: Exchange): Promise<ShadowResponse> {
  const { kind, upstream, upstreamJson } = exchange;
  const contentType = exchange.headers['content-type'];
  // The target is mapped with the ids known before this response: a pet first shown by this read is still one the shadow has not.
  const target = shadowTarget(shadow, exchange);
  if (upstream.status === 200 && kind === 'read') mirrorPet(shadow, upstreamJson);
  const response = await shadow.mock.respond(
    textRequest(exchange.method, target, exchange.body, {
      ...(upstream.status === 401 ? {} : { authorization: `Bearer ${SHADOW_KEY}` }),
      ...(contentType === undefined ? {} : { 'content-type': contentType }),
    }),
  );
  const json = parsedBody(response.body);
  if (kind === 'create' && upstream.status === 201 && response.status === 201 && isJsonObject(json))
    mirrorPet(shadow, upstreamJson, String(json[BUNDLED_MODEL.id.field]));
  if (kind === 'list' && Array.isArray(upstreamJson)) for (const pet of upstreamJson) mirrorPet(shadow, pet);
  return { response, json };
}
