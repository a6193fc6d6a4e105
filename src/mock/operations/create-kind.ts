/**
 * A create (`POST /pets`): parses a draft from the JSON body (draft-body.ts); responds 201 with the new
 * record and its `Location`, once it is saved where the mock keeps its state.
 */
import { stringifyJson } from '../../json/lossless.js';
import type { ModelOperation, ResourceModel } from '../../openapi/resource-model.js';
import { JSON_RESPONSE_HEADERS, type MockResponse, preparedResponse, preparedWith } from '../core/messages.js';
import { andThen, type Pending } from '../core/pending.js';
import type { Saved } from '../state/saved-changes.js';
import { lastJsonOf } from '../state/seed-index.js';
import type { Session } from '../state/sessions.js';
import type { PetDraft, StoredPet } from '../state/store.js';
import { draftParser } from './draft-body.js';
import type { MockOperation, OperationEnv, ParsedInputs, Responder } from './operation.js';

/** Where a created record is: the item's path, split once around its id's place (`/v1/pets/` and ``). */
type ItemPath = readonly [before: string, after: string];

/** The 201 of a saved pet, its `Location` the item's path around its id; or the Error that says the change was undone. */
function created(saved: Saved<StoredPet>, [before, after]: ItemPath): MockResponse {
  if ('error' in saved) return saved.error;
  const pet = saved.value;
  return preparedResponse(201, preparedWith(JSON_RESPONSE_HEADERS, 'location', `${before}${pet.id}${after}`), lastJsonOf(pet) ?? stringifyJson(pet));
}

/** Saves a record of `draft` in the session's store, then answers: in the same turn when the store and the save need no waiting. */
function create(env: OperationEnv, itemPath: ItemPath, draft: PetDraft, session: Session): Pending<MockResponse> {
  return andThen(
    env.change(session, () => session.store.create(draft)),
    (saved) => created(saved, itemPath),
  );
}

/** A create of the resource, its body and its fields read from the model. */
export function createKind(env: OperationEnv, model: ResourceModel, operation: ModelOperation): MockOperation {
  const parseDraft = draftParser(env, model, operation);
  const [before = '', after = ''] = `${env.basePath}${model.itemPath}`.split(`{${model.id.parameter}}`);
  const itemPath: ItemPath = [before, after];
  const respondWith =
    (draft: PetDraft): Responder =>
    (_request, session) =>
      create(env, itemPath, draft, session);
  // A create documents no path or query parameters: every request-target leads to the same body, still to parse.
  const bodyToParse: ParsedInputs = { parseBody: (request) => parseDraft(request, respondWith) };
  return { id: operation.operationId, parse: () => bodyToParse };
}
