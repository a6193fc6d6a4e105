/**
 * The resource model of the bundled spec/openapi.yaml, read once from its generated copy, with the
 * validators `npm run generate` precompiled: what the mock and the fixtures serve unless told another spec.
 */
import { openapi } from '../generated/openapi.js';
import * as validators from '../generated/validators.js';
import { readResourceModel, type ValidatorLookup } from './resource-model.js';

/** A generated validator by name, when there is one. */
const bundledValidators: ValidatorLookup = (name) => {
  const validator: unknown = Reflect.get(validators, name);
  return typeof validator === 'function' ? (validator as ReturnType<ValidatorLookup>) : undefined;
};

/**
 * The pet store's resource model.
 * @example
 * BUNDLED_MODEL.id.field; // 'id'
 */
export const BUNDLED_MODEL = readResourceModel(openapi, bundledValidators);
