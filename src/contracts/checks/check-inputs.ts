/**
 * How a deployment reads its path and query parameters, probed from the spec's own parameters: an
 * integer path parameter spelled as a numeric prefix and more (what `parseInt` reads), an integer
 * query parameter sent as a boolean, a quoted number, a fraction or a number and text, and an enum
 * query parameter in another case. Each probe names a reading no correct deployment makes; a spelling
 * that denotes the integer itself (`+7`, `07`, `7.0`, `7e0`), which typed parsers read so, is advice
 * (src/contracts/integer-spellings.ts).
 */
import { type JsonSchema, type OpenApiDocument, operationsOf, type Parameter, parametersOf, resolve } from '../../openapi/document.js';
import { unknownValueFault } from '../causes.js';
import type { Check, CheckContext } from '../check.js';
import type { Exchange } from '../http.js';
import { integerDenoted } from '../integer-spellings.js';
import { createPet, existingPet, idOf, isPet, listPage, petsOf } from '../pets.js';

/** A parameter of an operation, its schema resolved. */
interface Input {
  readonly operationId: string;
  readonly name: string;
  readonly schema: JsonSchema;
}

/** The parameters at `location` whose schema `where` picks, of every GET operation of the spec. */
function inputsOf(doc: OpenApiDocument, location: Parameter['in'], where: (schema: JsonSchema) => boolean): Input[] {
  return operationsOf(doc)
    .filter((entry) => entry.method === 'get')
    .flatMap((entry) =>
      parametersOf(doc, entry.operation)
        .filter((parameter) => parameter.in === location)
        .map((parameter) => ({ operationId: entry.operationId, name: parameter.name, schema: resolve(doc, parameter.schema) }))
        .filter((input) => where(input.schema)),
    );
}

const isInteger = (schema: JsonSchema) => schema.type === 'integer';

/** The fault of an operation that reads an integer parameter leniently (parseInt, Number()): met by every check that sends one a lenient reader takes. */
export function lenientIntegerFault(operationId: string, parameter: string): string {
  return `lenient-integer:${operationId}:${parameter}`;
}

/**
 * Spellings of the integer `id` other than its canonical one, each named for a report. Whether a
 * deployment may serve a pet for one is not listed here: it follows from what the spelling denotes
 * (`integerDenoted`), so that each probe states the rule it applies.
 */
function otherSpellings(id: string): { readonly spelling: string; readonly what: string; readonly misread?: string }[] {
  return [
    { spelling: `${id}abc`, what: 'a numeric prefix and text', misread: "read as its prefix by parseInt or Ruby's to_i" },
    { spelling: `${id}.5`, what: 'a fraction', misread: 'read as its integer part by parseInt or a truncating float parse' },
    { spelling: `${id}e1`, what: 'an exponent, ten times the id', misread: 'read as its digits before the e by parseInt' },
    { spelling: `+${id}`, what: 'a plus sign' },
    { spelling: ` ${id}`, what: 'a space before it' },
    { spelling: `${id} `, what: 'a space after it' },
    { spelling: `0${id}`, what: 'a leading zero' },
    { spelling: `${id}.0`, what: 'a zero fraction' },
    { spelling: `${id}e0`, what: 'an exponent of zero' },
  ];
}

/** What a deployment should do to serve an int64 for its canonical spelling only. */
const DIGITS_ONLY = 'accept digits only (/^-?(0|[1-9][0-9]*)$/, no sign, leading zero or space) before converting, and answer 400 (or 404)';

/**
 * Each integer path parameter spelled otherwise than as the id of an existing pet: 400 or 404, or the
 * pet its spelling denotes. The pet of the id itself for a spelling that denotes it (`+1000`, ` 1000`,
 * `1000.0`) is advice: the interface does not say how an integer is spelt in a path, and mainstream
 * typed parsers read them so (src/contracts/integer-spellings.ts). A pet for a spelling that denotes
 * no integer, or another, is a lenient reading: a failure.
 */
async function expectIdSpellingsRefused(context: CheckContext, input: Input): Promise<void> {
  const id = idOf(context, await existingPet(context));
  if (!/^\d+$/.test(id)) context.skip(`the pet's id ${id} is not plain digits, so no spelling of it can be derived`);
  const sameInteger: string[] = [];
  for (const { spelling, what, misread } of otherSpellings(id)) {
    const exchange = await context.call(input.operationId, { params: { [input.name]: spelling } });
    if (exchange.status === 400 || exchange.status === 404) continue;
    const served = exchange.status === 200 && isPet(context, exchange.json) ? idOf(context, exchange.json) : undefined;
    const denoted = integerDenoted(spelling);
    if (served !== undefined && denoted !== undefined && served === String(denoted)) {
      sameInteger.push(`${JSON.stringify(spelling)} (${what})${served === id ? '' : ` as the pet ${served}`}`);
      continue;
    }
    const spelt = `${input.name} ${JSON.stringify(spelling)}, ${what}${misread ? ` (${misread})` : ''}`;
    context.fail(
      served === undefined
        ? `${input.operationId} answered ${exchange.status} for ${spelt}`
        : `${input.operationId} answered the pet ${served} for ${spelt}, which ${denoted === undefined ? 'denotes no integer' : `denotes ${denoted}`}: ${input.name} is an int64, so ${DIGITS_ONLY}`,
      exchange,
      {
        expected: denoted === undefined ? '400 or 404' : `400, 404, or the pet ${denoted}`,
        actual: served === undefined ? String(exchange.status) : `200 with the pet ${served}`,
        ...(served === undefined ? {} : { fault: lenientIntegerFault(input.operationId, input.name) }),
      },
    );
  }
  if (sameInteger.length > 0)
    context.advise(
      `${input.operationId} answers ${input.name} spelt otherwise than in digits alone with the pet the spelling denotes (${id} unless said): ${sameInteger.join(', ')}. Typed parsers read these so (pydantic and FastAPI, Go's strconv.ParseInt, Ruby's Integer()) and the interface does not say how an integer is spelt in a path, so this is no failure; to serve the canonical spelling only, ${DIGITS_ONLY}`,
      `spelling:${input.operationId}:${input.name}`,
    );
}

/** Values of an integer query parameter that are not integers, with the integer a lenient reader makes of each: a boolean, a quoted number, a fraction, a number and text. */
const LENIENT_READINGS: readonly (readonly [string, readonly number[], string])[] = [
  ['true', [1], 'a boolean (read as 1, as Python reads True)'],
  ['"3"', [3], 'a quoted number (a JSON string)'],
  ['3.5', [3, 4], 'a fraction (truncated or rounded)'],
  ['3abc', [3], 'a number and text (read as its prefix by parseInt)'],
];

/** Fewer pets than this, and a page read leniently cannot be told from the default page. */
const LEAST_PETS = 5;

/**
 * An integer query parameter that sizes a page, sent as something that is no integer: a 400, or the
 * page as if it were absent (as the deployment answers plain text), never the page its lenient reading asks for.
 */
async function expectNoLenientReading(context: CheckContext, input: Input): Promise<void> {
  let seen = (await listPage(context)).pets.length;
  // The missing pets are created, so that a run checks this whatever the deployment held (a second run finds the first's pets).
  for (let made = 1; seen < LEAST_PETS && !context.state.readOnly; made++, seen++) await createPet(context, `lenient ${made}`);
  if (seen < LEAST_PETS)
    context.skip(`fewer than ${LEAST_PETS} pets exist, and --read-only creates none, so a page read leniently cannot be told from another`);
  const count = (exchange: Exchange) => (exchange.status === 200 ? petsOf(context, exchange.json).length : undefined);
  // What the deployment does with a value no reader takes for a number: its answer to a non-integer.
  const plain = count(await context.call(input.operationId, { query: `${input.name}=petstore-verify` }));
  for (const [value, readings, what] of LENIENT_READINGS) {
    const exchange = await context.call(input.operationId, { query: `${input.name}=${encodeURIComponent(value)}` });
    const answered = count(exchange);
    if (answered === undefined || answered === plain || !readings.includes(answered)) continue;
    context.fail(
      `${input.operationId} with ${input.name}=${value}, ${what}, answered ${answered} pets: it takes a value that is no integer as one; ${input.name} is an integer, so answer 400 naming ${input.name} (or the page as if it were absent, as for ${input.name}=petstore-verify)`,
      exchange,
      { expected: `400, or ${plain === undefined ? 'a 400 as' : `${plain} pets as`} for ${input.name}=petstore-verify`, actual: `200 with ${answered} pets` },
    );
  }
}

/** The value of an enum the listing shows most, so that matching another spelling of it would show pets. */
function mostListed(context: CheckContext, name: string, values: readonly string[]): string | undefined {
  const count = (value: string) => context.state.listing.filter((pet) => pet[name] === value).length;
  return [...values].sort((a, b) => count(b) - count(a))[0];
}

/** Another case of an enum value: upper case, and the first letter capitalized. */
function otherCases(value: string): string[] {
  return [...new Set([value.toUpperCase(), `${value.charAt(0).toUpperCase()}${value.slice(1)}`])].filter((spelling) => spelling !== value);
}

/** An enum query parameter spelled in another case is outside the enum: 400, or an empty page, never the pets of the value it spells. */
async function expectEnumCaseRefused(context: CheckContext, input: Input): Promise<void> {
  const values = Array.isArray(input.schema.enum) ? input.schema.enum.filter((value): value is string => typeof value === 'string') : [];
  const value = mostListed(context, input.name, values);
  if (value === undefined) context.skip(`the spec gives ${input.name} no string values`);
  for (const spelling of otherCases(value)) {
    const exchange = await context.call(input.operationId, { query: `${input.name}=${encodeURIComponent(spelling)}` });
    const pets = petsOf(context, exchange.json);
    if (exchange.status === 400 || (exchange.status === 200 && pets.length === 0)) continue;
    const same = pets.length > 0 && pets.every((pet) => pet[input.name] === value);
    context.fail(
      `${input.operationId} with ${input.name}=${spelling} answered ${exchange.status} with ${pets.length} pets${same ? ` of ${input.name} ${value}: it matches ${input.name} ignoring case` : ''}; ${spelling} is not one of ${values.join(', ')} (an enum is exact), so answer 400 naming ${input.name} (or an empty page), and compare the value as sent`,
      exchange,
      // Matched ignoring case or ignored, pets for a value outside the enum are one fault with listPets.status-invalid's (and the fuzz suite's).
      {
        expected: '400, or 200 with no pets',
        actual: `${exchange.status}, ${pets.length} pets`,
        fault: unknownValueFault(input.operationId, input.name),
      },
    );
  }
}

/** A check per parameter: `id` and `title` name the probe, `run` probes one parameter. */
function probeChecks(
  inputs: readonly Input[],
  id: string,
  title: (input: Input) => string,
  run: (context: CheckContext, input: Input) => Promise<void>,
): Check[] {
  return inputs.map((input) => ({
    id: `${input.operationId}.${input.name}-${id}`,
    title: title(input),
    operationId: input.operationId,
    writes: false,
    run: (context) => run(context, input),
  }));
}

const isEnum = (schema: JsonSchema) => Array.isArray(schema.enum);
/** An integer query parameter with a maximum: a page's size. */
const isPageSize = (schema: JsonSchema) => isInteger(schema) && typeof schema.maximum === 'number';

/**
 * The parameter probes, derived from the spec: each integer path parameter, each integer query
 * parameter with a maximum (a page's size), each enum query parameter.
 */
export function inputChecks(doc: OpenApiDocument): Check[] {
  return [
    ...probeChecks(
      inputsOf(doc, 'path', isInteger),
      'spellings',
      ({ operationId, name }) =>
        `${operationId} answers 400, 404 or the pet it denotes for ${name} spelt otherwise than in digits (1000abc, 1000.5, 1000e1, +1000, 1000.0), never a pet a lenient reading finds`,
      expectIdSpellingsRefused,
    ),
    ...probeChecks(
      inputsOf(doc, 'query', isPageSize),
      'lenient',
      ({ operationId, name }) =>
        `${operationId} takes no value of ${name} that is not an integer (true, "3", 3.5, 3abc) as one: 400, or the page as if it were absent`,
      expectNoLenientReading,
    ),
    ...probeChecks(
      inputsOf(doc, 'query', isEnum),
      'case',
      ({ operationId, name }) => `${operationId} matches ${name} exactly: a value of its enum in another case is 400 or an empty page`,
      expectEnumCaseRefused,
    ),
  ];
}
