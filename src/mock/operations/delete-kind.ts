/**
 * A delete (`DELETE /pets/{petId}`): parses the id from the path; responds 204 once the pet is removed
 * (and the removal saved where the mock keeps its state), 404 when the session has none with that id.
 * A removed pet is gone from every page and filter, and its id is never given to another.
 */
import type { ModelOperation, ResourceModel } from '../../openapi/resource-model.js';
import { JSON_RESPONSE_HEADERS, type MockResponse, preparedResponse } from '../core/messages.js';
import { andThen, type Pending } from '../core/pending.js';
import type { Session } from '../state/sessions.js';
import { absentItem, parseItemId } from './item-id.js';
import type { MockOperation, OperationEnv } from './operation.js';

const REMOVED: MockResponse = preparedResponse(204, JSON_RESPONSE_HEADERS, '');

function remove(env: OperationEnv, id: number | bigint, session: Session): Pending<MockResponse> {
  return andThen(
    env.change(session, () => session.store.remove(id)),
    (saved) => {
      if ('error' in saved) return saved.error;
      return saved.value ? REMOVED : absentItem(id);
    },
  );
}

/** A delete of one pet by its id. */
export function deleteKind(env: OperationEnv, model: ResourceModel, operation: ModelOperation): MockOperation {
  return {
    id: operation.operationId,
    parse(params) {
      const parsed = parseItemId(model, operation, params);
      if ('rejection' in parsed) return parsed;
      return { respond: (_request, session) => remove(env, parsed.id, session) };
    },
  };
}
