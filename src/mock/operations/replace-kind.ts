/**
 * A replace (`PUT /pets/{petId}`): parses the id from the path and a draft from the JSON body, as a
 * create does (draft-body.ts: the same checks, the same server defaults); responds 200 with the stored
 * record, its id kept, once it is saved where the mock keeps its state; 404 when the session has none
 * with that id, which never makes one.
 */
import { stringifyJson } from '../../json/lossless.js';
import type { ModelOperation, ResourceModel } from '../../openapi/resource-model.js';
import { JSON_RESPONSE_HEADERS, type MockResponse, preparedResponse } from '../core/messages.js';
import { andThen, type Pending } from '../core/pending.js';
import type { Session } from '../state/sessions.js';
import type { PetDraft } from '../state/store.js';
import { draftParser } from './draft-body.js';
import { absentItem, parseItemId } from './item-id.js';
import type { MockOperation, OperationEnv } from './operation.js';

function replace(env: OperationEnv, id: number | bigint, draft: PetDraft, session: Session): Pending<MockResponse> {
  return andThen(
    env.change(session, () => session.store.replace(id, draft)),
    (saved) => {
      if ('error' in saved) return saved.error;
      return saved.value === undefined ? absentItem(id) : preparedResponse(200, JSON_RESPONSE_HEADERS, stringifyJson(saved.value));
    },
  );
}

/** A replace of one record by its id, its body and its fields read from the model. */
export function replaceKind(env: OperationEnv, model: ResourceModel, operation: ModelOperation): MockOperation {
  const parseDraft = draftParser(env, model, operation);
  return {
    id: operation.operationId,
    parse(params) {
      const parsed = parseItemId(model, operation, params);
      if ('rejection' in parsed) return parsed;
      return { parseBody: (request) => parseDraft(request, (draft) => (_request, session) => replace(env, parsed.id, draft, session)) };
    },
  };
}
