/**
 * A create (`POST /pets`): parses a draft from the JSON body (draft-body.ts); responds 201 with the new
 * record and its `Location`, once it is saved where the mock keeps its state.
 */
import { stringifyJson } from '../../json/lossless.js';
import type { ModelOperation, ResourceModel } from '../../openapi/resource-model.js';
import { jsonResponse, type MockResponse } from '../core/messages.js';
import type { Session } from '../state/sessions.js';
import type { PetDraft } from '../state/store.js';
import { draftParser } from './draft-body.js';
import type { MockOperation, OperationEnv, ParsedInputs } from './operation.js';

async function create(env: OperationEnv, model: ResourceModel, draft: PetDraft, session: Session): Promise<MockResponse> {
  const saved = await env.change(session, () => session.store.create(draft));
  if ('error' in saved) return saved.error;
  const pet = saved.value;
  return jsonResponse(201, stringifyJson(pet), { location: `${env.basePath}${model.itemPath.replace(`{${model.id.parameter}}`, String(pet.id))}` });
}

/** A create of the resource, its body and its fields read from the model. */
export function createKind(env: OperationEnv, model: ResourceModel, operation: ModelOperation): MockOperation {
  const parseDraft = draftParser(env, model, operation);
  // A create documents no path or query parameters: every request-target leads to the same body, still to parse.
  const bodyToParse: ParsedInputs = {
    parseBody: async (request) => {
      const parsed = await parseDraft(request);
      return 'rejection' in parsed ? parsed : { respond: (_request, session) => create(env, model, parsed.draft, session) };
    },
  };
  return { id: operation.operationId, parse: () => bodyToParse };
}
