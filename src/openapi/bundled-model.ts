/**
 * The resource model of the bundled spec/openapi.yaml, read once from its generated copy, with the
 * validators `npm run generate` precompiled: what the mock and the fixtures serve unless told another spec.
 */
import { openapi } from '../generated/openapi.js';
import * as validators from '../generated/validators.js';
import type { OpenApiDocument } from './document.js';
import { type ResourceModel, readResourceModel, type ValidatorLookup } from './resource-model.js';

/**
 * A spec the mock serves: the document, its resource model, and its compiled validators. The bundled
 * one is `BUNDLED_SPEC`; another (`--spec FILE`) is compiled at start (`compileSpec`).
 */
export interface CompiledSpec {
  readonly doc: OpenApiDocument;
  readonly model: ResourceModel;
  readonly validators: ValidatorLookup;
}

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

/** spec/openapi.yaml with its model and its precompiled validators. */
export const BUNDLED_SPEC: CompiledSpec = { doc: openapi, model: BUNDLED_MODEL, validators: bundledValidators };
