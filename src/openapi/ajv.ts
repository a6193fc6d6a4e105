import type { ValidateFunction } from 'ajv';
import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import { SpecError } from '../errors.js';
import { MAX_FILE_BYTES } from '../files/file-bytes.js';
import { formats } from '../json/int64.js';
import { nestingProblem, passesBytes } from '../json/nesting.js';
import type { CompiledSpec } from './bundled-model.js';
import type { OpenApiDocument } from './document.js';
import { linearPatternProblems, linearRegExp } from './linear-pattern.js';
import { readResourceModel, type ValidatorLookup } from './resource-model.js';
import { schemaCostProblems } from './schema-cost.js';
import { componentSchemas, validatorSchemas } from './schemas.js';

/**
 * What ajv inlines of a referenced schema: one without a `$ref` in it, as its default `true` does, but
 * told by counting its keywords (which steps over the values of `enum` and `const`) instead of ajv's
 * walk of every value for a `$ref`, which goes through each string character by character: a status
 * enum of 90,000 values of 97 characters took 11 s of CPU to compile, 8.7 million steps for each
 * reference to it (the tenth attack's spec, test/verify/wide-enum-spec.test.ts). A finite bound, as a
 * schema with a `$ref` counts as infinitely many keywords: one referring to itself is never inlined.
 * The generated source keeps ajv's default: the same code (checked), its functions numbered as before.
 */
const INLINE_REFS = Number.MAX_SAFE_INTEGER;

/** Keywords OpenAPI 3.1 adds to JSON Schema; they annotate and never fail a value. */
const OPENAPI_KEYWORDS = ['example', 'discriminator', 'xml', 'externalDocs'];

/**
 * An ajv instance that knows the document's component schemas and the int32/int64 formats.
 * `useDefaults` fills in schema defaults (the `limit` of 20; the `status` of a new pet, from `x-server-default`), so those
 * values are read from the spec, never written again in code.
 * Every `pattern` runs in time linear in the text (linear-pattern.ts), but in generated source
 * (`code.source`: the bundled spec's validators, npm run generate), which keeps V8's engine for the
 * bundled spec's own patterns; `linear-pattern.test.ts` holds each of those to the linear engine too.
 */
export function createAjv(doc: OpenApiDocument, options: Options = {}): Ajv2020 {
  const source = options.code?.source === true;
  const code = options.code?.source === true ? options.code : { ...options.code, regExp: linearRegExp };
  // A validator made at run time (a spec read at start) stops at a value's first fault, so that only valid
  // values repeat: ajv keeping every error joined each item's to the list, and a 68-byte create of ten `{}`
  // against a required list of 100,000 names held the mock 18.9 s (red team 14 #4). The bundled spec's
  // generated validators (`code.source`), for its own schemas, name every faulty field of a body.
  const ajv = new Ajv2020({ allErrors: source, useDefaults: true, strict: true, ...(source ? {} : { inlineRefs: INLINE_REFS }), ...options, code });
  ajv.addVocabulary(OPENAPI_KEYWORDS);
  for (const [name, format] of Object.entries(formats)) ajv.addFormat(name, format);
  for (const schema of componentSchemas(doc)) ajv.addSchema(schema);
  return ajv;
}

/**
 * The validators of `doc` (named as `validatorSchemas` names them), each compiled on first use: the
 * validators of a spec read at start (`--spec`), where the bundled spec has its generated ones.
 * `options` go to ajv: the verifier's judge what a deployment sent, so they fill in no default.
 * @example
 * const lookup = compiledValidators(await loadSpecFile('variant.yaml'));
 * lookup('createPetBody')?.({ name: 'Rex', categoryId: 1 }); // true
 */
export function compiledValidators(doc: OpenApiDocument, options: Options = {}): ValidatorLookup {
  const ajv = createAjv(doc, options);
  const schemas = validatorSchemas(doc);
  const compiled = new Map<string, ValidateFunction>();
  return (name) => {
    const schema = schemas[name];
    if (schema === undefined) return undefined;
    let validate = compiled.get(name);
    if (validate === undefined) {
      validate = ajv.compile(schema);
      compiled.set(name, validate);
    }
    return validate;
  };
}

/**
 * A spec other than the bundled one, ready to serve: its resource model read (an operation of no known
 * kind refused with a `SpecError` that names it) and its validators compiled on first use.
 * @example
 * const spec = compileSpec(await loadSpecFile('variant.yaml'));
 * createMockApi({ spec });
 */
export function compileSpec(doc: OpenApiDocument): CompiledSpec {
  // The depth rule of a spec file (128 levels, no node inside itself), for a document given as a value: every walk below recurses.
  const problem = nestingProblem(doc);
  if (problem !== undefined) throw new SpecError(`the spec given to compileSpec cannot be read: ${problem}; a spec's schemas refer to each other with $ref`);
  // The size rule of a spec file, for a document given as a value: an enum of 3,000,000 values took 54 s to compile.
  if (passesBytes(doc, MAX_FILE_BYTES))
    throw new SpecError(`the spec given to compileSpec is more than ${MAX_FILE_BYTES} bytes as JSON, the most a --spec file holds; give a smaller spec`);
  // Each validator is compiled on first use: a pattern it could not run is refused here, at start, not while answering.
  const patterns = linearPatternProblems(doc);
  if (patterns.length > 0) throw new SpecError(`the spec's pattern ${patterns.join('; and ')}`);
  // And what checking a value costs: the schemas at one place, and the patterns a string pays each of (schema-cost.ts).
  const costs = schemaCostProblems(doc);
  if (costs.length > 0) throw new SpecError(costs.join('; and '));
  const validators = compiledValidators(doc);
  try {
    return { doc, model: readResourceModel(doc, validators), validators };
  } catch (error) {
    // ajv builds a validator's code by recursion over a schema's branches: thousands of them (a oneOf of
    // 3,000 consts, 60 KB) overflow its stack, which is a spec no validator can be made of, said as such.
    if (error instanceof RangeError)
      throw new SpecError(
        `a schema of the spec is too wide for a validator to be compiled (${error.message}): a oneOf, anyOf or allOf of thousands of branches? Write a list of values as an enum`,
      );
    throw error;
  }
}
