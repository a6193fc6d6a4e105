/**
 * The mock's operations: one per operation of the resource model, each served by the generic code of
 * its kind, which reads its policy (bounds, filters, fields, retirement) from the model and the profile.
 * An operation of the spec is served with no code of its own; a kind the mock does not serve yet is
 * refused at start, naming it.
 */
import { SpecError } from '../../errors.js';
import type { ModelOperation, OperationKind, ResourceModel } from '../../openapi/resource-model.js';
import { createKind } from './create-kind.js';
import { deleteKind } from './delete-kind.js';
import { listKind } from './list-kind.js';
import type { MockOperation, OperationEnv } from './operation.js';
import { readKind } from './read-kind.js';
import { replaceKind } from './replace-kind.js';

type KindOf = (env: OperationEnv, model: ResourceModel, operation: ModelOperation) => MockOperation;

const KINDS: Readonly<Partial<Record<OperationKind, KindOf>>> = {
  list: (env, _model, operation) => listKind(env, operation),
  create: createKind,
  read: readKind,
  replace: replaceKind,
  delete: deleteKind,
};

/**
 * The operations of `model`, each served by its kind.
 * @example
 * createRouter('/v1', mockOperations(BUNDLED_MODEL, env), coverage);
 */
export function mockOperations(model: ResourceModel, env: OperationEnv): MockOperation[] {
  if (model.id.type !== 'integer')
    throw new SpecError(`the mock numbers the records it creates, so their id ${model.id.field} must be an integer; it is a ${model.id.type}`);
  return model.operations.map((operation) => {
    const kind = KINDS[operation.kind];
    if (kind === undefined)
      throw new SpecError(
        `${operation.operationId} is a ${operation.kind}, which the mock does not serve yet; serve it with --proxy, or leave it out of the spec`,
      );
    return kind(env, model, operation);
  });
}
