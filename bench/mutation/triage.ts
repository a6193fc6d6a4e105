/**
 * The triage of every mutant that survives petstore-verify (scripts/mutation-report.ts applies it).
 * A rule covers the survivors of one file, optionally only inside one named declaration (`scope`),
 * only where the mutated code matches `code`, or only for some Stryker mutators. The first rule that
 * matches wins, so narrow rules come before broad ones.
 *
 * The trials start the mock through its command in every documented configuration
 * (scripts/mutation-run.ts), so no rule may call a change equivalent because the trials do not reach
 * it: a survivor no trial executes is *untested* whatever its rule says (mutation-report.ts), unless
 * the rule puts it outside the contract for a reason that holds in every configuration.
 */

/**
 * `equivalent`: no client of any documented configuration can tell the mutant from the mock.
 * `outside`: a client sees the change only where the interface leaves the answer free (an Error's
 * message, a choice the interface leaves open) or in a mock-only feature no client of the interface
 * uses (`Prefer: code=`, sessions, the journal, the admin endpoints): no verifier of the interface may judge it.
 * `missed`: a change the contract forbids, in code a trial reached, that the verifier did not catch.
 * `untested`: code a trial executes whose change only a client no trial plays could see (a restart
 * with `--state`); counted with the mutants no trial executes.
 */
export type Verdict = 'equivalent' | 'outside' | 'missed' | 'untested';

export interface TriageRule {
  readonly file: string;
  /** A declaration around the mutant: a function, a method (`Class.method`), a variable. */
  readonly scope?: string;
  /** Matches the original code of the mutated span. */
  readonly code?: RegExp;
  /** Matches the code Stryker put in its place. */
  readonly replacement?: RegExp;
  readonly mutators?: readonly string[];
  readonly verdict: Verdict;
  /** Why: for `equivalent`, why no answer changes; for `outside`, what a client sees and why no verifier may judge it; for `missed`, the check that would catch it. */
  readonly reason: string;
}

// Reasons shared by many rules.
const MESSAGE =
  'Only the text of an Error `message` (or of a log line) changes; the interface leaves the message free, so status, `code` and headers are what a verifier may judge, and they are unchanged.';
const SESSIONS =
  'Mock-only feature: named sessions (`X-Mock-Session`) isolate parallel tests; the interface has no sessions, and a deployment is checked through its one default state.';
const JOURNAL =
  'Mock-only feature: the request journal (`GET /__mock/requests`, `mock.requests()`) and the rule it names for each answer; nothing in an answer to the API changes.';
const PLUMBING =
  'Mock-only plumbing: the self-check, coverage counting, key labels and session names in the request log, the admin endpoints, the MSW `serves` filter; no answer of the API changes.';
const CHOICE =
  'The mock then makes another choice the interface leaves open (listPets documents only 200 and 401, so an out-of-range or unparsable `limit` may be clamped or ignored, an unknown `status` may give an empty page; a non-integer petId may be a 404; `Deprecation` may be the legacy `true`; the status of a pet created without one; the order of a page; the ids): a correct deployment may make either, as the profiles of real deployments show, so no verifier of the interface may fail it. The profile then no longer mimics its deployment: test/mock covers that.';
const SEEDED =
  'The pets a mock starts with change (none, or drawn another way): the interface fixes no initial data, so a deployment may start empty or with any pets, and the verifier reads only the pets it lists or creates. The mock documents its seeded pets (docs/mock-data.md), which test/mock checks.';
const IDS =
  'The ids the mock gives change (dense from 1, beyond 2^53, drawn at random): the interface leaves ids to the deployment, so the verifier checks only that they are integers, unique and readable back.';
const UNUSED =
  'The value is computed and then not used in that configuration (your own data replaces the seeded pets), so no answer changes; it only costs a little at start.';
const RESTART =
  'What `--state` keeps for the next start of the mock changes: a client sees it only after a restart, which no trial makes (the verifier checks one running deployment): untested.';
const PREFER =
  'Mock-only feature: the preferences the mock honours (`Prefer: code=`, `delay=`, `auth=expired`, `fault=`, `trickle=`), their `__name` query twins, `--delay` and `--faults`: a client of the interface sends none of them (a standard RFC 7240 preference such as `return=minimal` is ignored either way), and the interface promises no latency.';
/** Why a field the body leaves out may as well be set to `undefined`. */
const LEFT_OUT_UNDEFINED =
  'A field the body leaves out and the schema gives no default is set to `undefined`, which JSON leaves out as before; `categoryId` and `name` are required, and `status` has its default.';

const PAST_SUNSET =
  "Only getPet's 410 past its sunset (5 December 2030) changes: no trial runs the mock past the sunset (with `--now` after it, the verifier fails the mock on getPet.petId-spellings, a 410 for `1abc`, which is the verifier's to settle). Untested.";
const UNDEFINED_PATHS =
  "A request to a path the spec does not define (outside the base path, the favicon a browser asks for, `/`) gets another answer than the mock's 404, or its 404 another Error code: the interface defines the answers of its operations only, and the answer stays a 4xx, never a 5xx.";
const UNTRIED = (config: string) => `Changes only ${config}, a configuration no trial runs yet (scripts/mutation-run.ts): untested.`;

export const TRIAGE: readonly TriageRule[] = [
  // --- create-mock-api.ts: the state a mock starts with --------------------------------------------
  // --- operations/create-kind.ts: createPet -----------------------------------------------------------
  {
    file: 'src/mock/operations/create-kind.ts',
    scope: 'context',
    code: /maxBodyBytes \?\? DEFAULT_MAX_BODY_BYTES/,
    verdict: 'untested',
    reason: `The bundled spec's \`x-max-body-bytes\` is the default, 1 MiB, so the limit is the same. ${UNTRIED('a spec with another limit (`--spec`)')}`,
  },
  {
    file: 'src/mock/operations/create-kind.ts',
    scope: 'serverDefaulted',
    verdict: 'outside',
    reason: `The profile's \`defaultStatus\` is no longer applied to a pet created without a status. ${CHOICE}`,
  },
  {
    file: 'src/mock/operations/create-kind.ts',
    scope: 'context',
    code: /categories|^'object'$/,
    verdict: 'outside',
    reason: `The profile's known categories are no longer enforced: a create of another category is accepted. ${CHOICE}`,
  },
  {
    file: 'src/mock/operations/create-kind.ts',
    scope: 'parseBody',
    code: /^mediaTypeProblem !== undefined$/,
    verdict: 'missed',
    reason:
      'A body sent as `text/plain` (or with no Content-Type) is taken: the spec documents 415 for a body that is not `application/json`. Check to add: POST a NewPet as `text/plain` and expect a 4xx; the interface only says clients send `application/json`, and Go’s encoding/json reads any body, so it may have to be advice under `--strict`.',
  },
  {
    file: 'src/mock/operations/create-kind.ts',
    scope: 'parseBody',
    code: /^'rejection' in read$|^'rejection'$/,
    verdict: 'missed',
    reason:
      'A body that is not UTF-8 gets 413 (payload_too_large) instead of 400: RFC 8259 §8.1 makes such a body no JSON text. Check to add: POST a NewPet holding a byte that is not UTF-8 and expect 400, or at least no 413.',
  },
  {
    file: 'src/mock/operations/create-kind.ts',
    scope: 'parseBody',
    code: /^text === undefined$/,
    verdict: 'missed',
    reason:
      'A body over 1 MiB reads as `undefined` and the mock throws: a 500. Caught since 5cf1448 (createPet.variation sends a body over 1 MiB and allows anything but a 5xx; test/verify/variation.test.ts), after this run.',
  },
  {
    file: 'src/mock/operations/create-kind.ts',
    scope: 'parseBody',
    code: /^text\.trim\(\) === ''$|^text\.trim\(\)$|^''$/,
    verdict: 'outside',
    reason:
      "An empty or blank body is refused by the JSON parser instead, with the same 400 (`malformed_json` rather than `bad_request`): no body is no JSON text either, and both are the spec's codes of a 400.",
  },
  {
    file: 'src/mock/operations/create-kind.ts',
    scope: 'parseBody',
    code: /^\{\s*return reject\('malformed_json'/,
    verdict: 'outside',
    reason:
      "Text that is not JSON goes on to the schema check, which refuses it with the same 400 (`bad_request` rather than `malformed_json`): the interface fixes the status; which of the spec's codes of a 400 names it is the spec's description, which a profile's `errorCodes` maps for deployments that spell it otherwise.",
  },
  { file: 'src/mock/operations/create-kind.ts', code: /^['`]The request body|^', '$|^\[\.\.\.knownCategories\]$/, verdict: 'outside', reason: MESSAGE },
  {
    file: 'src/mock/operations/create-kind.ts',
    scope: 'parseNewPet',
    code: /^serverDefaulted !== undefined$/,
    replacement: /^true$/,
    verdict: 'untested',
    reason: `The bundled spec has a server-defaulted field (\`status\`), so nothing changes. ${UNTRIED('a spec with none (`--spec`)')}`,
  },
  {
    file: 'src/mock/operations/create-kind.ts',
    scope: 'parseNewPet',
    code: /serverDefaulted|knownCategories|defaultStatus|^'omitted'$/,
    verdict: 'outside',
    reason: `The profile's \`defaultStatus\` or known categories are no longer applied. ${CHOICE}`,
  },
  {
    file: 'src/mock/operations/create-kind.ts',
    scope: 'parseNewPet',
    code: /^value !== undefined$/,
    replacement: /^true$/,
    verdict: 'equivalent',
    reason: LEFT_OUT_UNDEFINED,
  },
  {
    file: 'src/mock/operations/create-kind.ts',
    scope: 'create',
    code: /^'error' in saved$|^'error'$/,
    verdict: 'untested',
    reason:
      'A create whose `--state` file cannot be written answers as if saved: no trial makes the file fail to write (a full disk, a read-only directory). Untested.',
  },
  {
    file: 'src/mock/operations/create-kind.ts',
    scope: 'create',
    code: /location|itemPath/,
    verdict: 'missed',
    reason:
      "The 201 has no `Location` (or an empty one), which the spec documents on createPet's 201. The verifier takes a documented header that is absent as advice, as the interface names no response header. Check to add: a 201 carries `Location` naming the created pet, or fail under the spec.",
  },
  { file: 'src/mock/operations/create-kind.ts', scope: 'sizeOf', verdict: 'outside', reason: `${MESSAGE} (The size named in the 413's message.)` },
  // --- operations/request-inputs.ts ---------------------------------------------------------------------------
  {
    file: 'src/mock/operations/request-inputs.ts',
    scope: 'checkInput',
    code: /^validator === undefined$/,
    replacement: /^false$/,
    verdict: 'untested',
    reason: `Every place of the bundled spec that is checked has a validator, so nothing changes. ${UNTRIED('a spec with an operation without parameters (`--spec`)')}`,
  },
  { file: 'src/mock/operations/request-inputs.ts', scope: 'rejection', verdict: 'outside', reason: MESSAGE },
  {
    file: 'src/mock/operations/request-inputs.ts',
    scope: 'exactInteger',
    code: /^typeof sent === 'bigint'$/,
    replacement: /^true$/,
    verdict: 'equivalent',
    reason:
      'The value sent is returned in place of the one checked: the lossless parser gives the same number for every integer up to 2^53 (and the bigint beyond, which the original returns too), and a path or query integer is already coerced (coerceParameter).',
  },
  // --- operations/kinds.ts, item-id.ts, list-kind.ts ----------------------------------------------------
  {
    file: 'src/mock/operations/kinds.ts',
    scope: 'mockOperations',
    verdict: 'untested',
    reason: `A check of the spec served, at start: the bundled spec passes it. ${UNTRIED('a spec the mock cannot serve (`--spec`)')}`,
  },
  {
    file: 'src/mock/operations/item-id.ts',
    scope: 'path',
    verdict: 'untested',
    reason: `getPet's only parameter is in the path, so the filter changes nothing for the bundled spec. ${UNTRIED('a spec whose item operation has other parameters (`--spec`)')}`,
  },
  { file: 'src/mock/operations/item-id.ts', code: /^'The path'$/, verdict: 'outside', reason: MESSAGE },
  {
    file: 'src/mock/operations/item-id.ts',
    scope: 'parseItemId',
    code: /notAnInteger|typeof sent|^'string'$/,
    verdict: 'outside',
    reason: `The profile's \`nonIntegerPetId: 404\` is no longer applied, or applied to an integer out of range too. ${CHOICE}`,
  },
  {
    file: 'src/mock/operations/list-kind.ts',
    scope: 'relaxedLimit',
    verdict: 'outside',
    reason: `The profile's choices on \`limit\` are applied otherwise. ${CHOICE}`,
  },
  {
    file: 'src/mock/operations/list-kind.ts',
    scope: 'limitRelaxed',
    verdict: 'outside',
    reason: `The profile's choices on \`limit\` are applied otherwise. ${CHOICE}`,
  },
  {
    file: 'src/mock/create-mock-api.ts',
    scope: 'respondAdmin',
    code: /journal\?\.keeper/,
    verdict: 'untested',
    reason: UNTRIED('a mock without the journal (`--no-journal`), which would then not start'),
  },
  { file: 'src/mock/create-mock-api.ts', scope: 'respond', code: /selfCheck/, verdict: 'outside', reason: PLUMBING },
  ...['reset', 'requests', 'clearRequests', 'coverage'].map(
    (scope): TriageRule => ({
      file: 'src/mock/create-mock-api.ts',
      scope,
      verdict: 'outside',
      reason: 'A method of the mock in code (`mock.reset()`, `mock.requests()`, `mock.coverage()`) and of the admin endpoints: no answer of the API changes.',
    }),
  ),
  { file: 'src/mock/create-mock-api.ts', scope: 'memorySessions', code: /settings\.restore/, verdict: 'untested', reason: RESTART },
  {
    file: 'src/mock/create-mock-api.ts',
    scope: 'stateOf',
    code: /^!shared$/,
    replacement: /^true$/,
    verdict: 'untested',
    reason: UNTRIED('a mock whose state is in Redis (`--store`)'),
  },
  { file: 'src/mock/create-mock-api.ts', scope: 'journalOf', verdict: 'outside', reason: JOURNAL },
  { file: 'src/mock/create-mock-api.ts', scope: 'journalOn', verdict: 'outside', reason: JOURNAL },
  { file: 'src/mock/create-mock-api.ts', scope: 'keyLabelsByIndex', verdict: 'outside', reason: PLUMBING },
  { file: 'src/mock/create-mock-api.ts', scope: 'change', code: /DEFAULT_SESSION/, replacement: /^false$|!==/, verdict: 'untested', reason: RESTART },
  {
    file: 'src/mock/create-mock-api.ts',
    scope: 'change',
    code: /DEFAULT_SESSION/,
    replacement: /^true$/,
    verdict: 'outside',
    reason: `A named session's changes are saved to the \`--state\` file too. ${SESSIONS}`,
  },
  {
    file: 'src/mock/create-mock-api.ts',
    scope: 'inMemory',
    code: /^spec === BUNDLED_SPEC$/,
    replacement: /^true$|!==/,
    verdict: 'untested',
    reason: UNTRIED('a mock of another spec (`--spec`), whose pets would be drawn from the bundled fields'),
  },
  { file: 'src/mock/create-mock-api.ts', scope: 'inMemory', code: /^spec === BUNDLED_SPEC$/, verdict: 'outside', reason: SEEDED },
  {
    file: 'src/mock/create-mock-api.ts',
    scope: 'inMemory',
    code: /^settings\.data === undefined$/,
    replacement: /^true$/,
    verdict: 'equivalent',
    reason: UNUSED,
  },
  { file: 'src/mock/create-mock-api.ts', scope: 'inMemory', code: /^\[\]$/, verdict: 'equivalent', reason: UNUSED },
  { file: 'src/mock/create-mock-api.ts', scope: 'inMemory', code: /^settings\.data === undefined$/, verdict: 'outside', reason: SEEDED },
  {
    file: 'src/mock/create-mock-api.ts',
    scope: 'inMemory',
    code: /seeded instanceof Promise/,
    verdict: 'untested',
    reason: UNTRIED('a mock seeded with another `--seed` or `--count`, whose pets come in a promise once faker is loaded'),
  },
  { file: 'src/mock/create-mock-api.ts', scope: 'memorySessions', code: /idScheme|^'random'$/, verdict: 'outside', reason: `${IDS} ${CHOICE}` },
  { file: 'src/mock/create-mock-api.ts', scope: 'memorySessions', code: /^data === undefined$/, replacement: /^true$/, verdict: 'equivalent', reason: UNUSED },
  { file: 'src/mock/create-mock-api.ts', scope: 'memorySessions', code: /^\[\]$/, verdict: 'equivalent', reason: UNUSED },
  { file: 'src/mock/create-mock-api.ts', scope: 'memorySessions', code: /^data === undefined$/, verdict: 'outside', reason: SEEDED },
  { file: 'src/mock/create-mock-api.ts', scope: 'memorySessions', code: /^data !== undefined$/, verdict: 'outside', reason: IDS },
  {
    file: 'src/mock/create-mock-api.ts',
    scope: 'memorySessions',
    code: /^order === undefined$/,
    replacement: /^false$/,
    verdict: 'equivalent',
    reason: 'An order of `undefined` is passed instead of none: the seed index takes its default order either way.',
  },
  { file: 'src/mock/create-mock-api.ts', scope: 'memorySessions', code: /order/, verdict: 'outside', reason: CHOICE },
  {
    file: 'src/mock/create-mock-api.ts',
    scope: 'memorySessions',
    code: /operationOfKind|^'list'$/,
    verdict: 'untested',
    reason: `The list filter of the spec served: for the bundled spec the seed index falls back to the same one. ${UNTRIED('a mock of another spec (`--spec`)')}`,
  },
  {
    file: 'src/mock/operations/list-kind.ts',
    scope: 'query',
    verdict: 'untested',
    reason: `listPets's parameters are all in the query, so the filter changes nothing for the bundled spec. ${UNTRIED('a spec whose list has other parameters (`--spec`)')}`,
  },
  {
    file: 'src/mock/operations/list-kind.ts',
    scope: 'parse',
    code: /^filter !== undefined$/,
    replacement: /^true$/,
    verdict: 'untested',
    reason: `The bundled spec's list has a filter (\`status\`), so nothing changes. ${UNTRIED('a spec whose list has none (`--spec`)')}`,
  },
  {
    file: 'src/mock/operations/list-kind.ts',
    scope: 'listKind',
    code: /unknownStatus|^'empty'$|emptyForUnknownValue|filter === undefined|filter !== undefined|value === raw|^raw === null/,
    verdict: 'outside',
    reason: `Which \`status\` values count as unknown, and whether one gives the profile's empty page (\`unknownStatus: empty\`) or a 400. ${CHOICE}`,
  },
  {
    file: 'src/mock/operations/list-kind.ts',
    scope: 'parse',
    code: /^repeated !== undefined$/,
    verdict: 'outside',
    reason:
      'A parameter given twice (`limit=1&limit=2`) is read as its first value rather than refused: the interface does not say, and frameworks differ (Express and FastAPI take one of them, a strict validator refuses), so the verifier may not fail either.',
  },
  {
    file: 'src/mock/operations/list-kind.ts',
    code: /^pageSize\?\.parameter$|^filter\?\.parameter$/,
    mutators: ['OptionalChaining'],
    verdict: 'untested',
    reason: `The bundled spec's list has a page size and a filter, so nothing changes. ${UNTRIED('a spec whose list has neither (`--spec`)')}`,
  },
  {
    file: 'src/mock/operations/list-kind.ts',
    scope: 'values',
    verdict: 'outside',
    reason: `The profile's choices on \`limit\` and on an unknown \`status\` are applied otherwise. ${CHOICE}`,
  },
  { file: 'src/mock/operations/list-kind.ts', code: /^'The query'$|^`The query/, verdict: 'outside', reason: MESSAGE },
  // --- operations/parameters.ts: the 400 of a parameter, and its message --------------------------------
  ...['describeErrors', 'phrase', 'fieldName', 'valueAt', 'TYPE_PHRASES', 'spellingHint', 'rangeOf', 'rangesOf'].map(
    (scope): TriageRule => ({ file: 'src/mock/operations/parameters.ts', scope, verdict: 'outside', reason: `${MESSAGE} (The words of a 400's message.)` }),
  ),
  {
    file: 'src/mock/operations/parameters.ts',
    scope: 'coerceParameter',
    code: /^schema\.type !== 'integer'$/,
    replacement: /^false$/,
    verdict: 'untested',
    reason: `A parameter that is no integer is coerced when it is spelt as one: the bundled spec's only such parameter, \`status\`, takes words, refused either way. ${UNTRIED('a spec with a string parameter that may be digits (`--spec`)')}`,
  },
  {
    file: 'src/mock/operations/parameters.ts',
    scope: 'repeatedParameter',
    verdict: 'outside',
    reason:
      'A parameter given twice (`limit=1&limit=2`) is read as its first value rather than refused: the interface does not say, and frameworks differ (Express and FastAPI take one of them, a strict validator refuses), so the verifier may not fail either.',
  },
  {
    file: 'src/mock/operations/parameters.ts',
    scope: 'parseParameters',
    code: /^raw === undefined$/,
    verdict: 'equivalent',
    reason: 'No lookup gives `undefined`: a path parameter is always there once the route matched, and a query parameter that is absent is `null`.',
  },
  {
    file: 'src/mock/operations/parameters.ts',
    scope: 'parseParameters',
    code: /^ranges\.size > 0$/,
    verdict: 'outside',
    reason: `${MESSAGE} (The ranges are carried only for the 400's message.)`,
  },
  // --- operations/read-kind.ts: getPet, its deprecation and its sunset ----------------------------------
  {
    file: 'src/mock/operations/read-kind.ts',
    scope: 'deprecationHeaders',
    code: /^form === 'legacy'$|^'legacy'$/,
    verdict: 'outside',
    reason: `\`Deprecation: true\` (the legacy form) in place of RFC 9745's date, or the profile's legacy form not applied. ${CHOICE}`,
  },
  {
    file: 'src/mock/operations/read-kind.ts',
    scope: 'deprecationHeaders',
    code: /^(deprecatedAt|sunset|replacement) === undefined$/,
    replacement: /^false$/,
    verdict: 'untested',
    reason: `getPet of the bundled spec has a deprecation date, a sunset and a replacement, so nothing changes. ${UNTRIED('a spec with a deprecated operation without them (`--spec`)')}`,
  },
  {
    file: 'src/mock/operations/read-kind.ts',
    scope: 'deprecationHeaders',
    verdict: 'missed',
    reason:
      "getPet's answers lose `Deprecation`, `Sunset` or `Link`, which the spec documents on getPet. The verifier takes a documented header that is absent as advice, as the interface names no response header. Check to add: fail getPet when a deprecation header the spec documents is absent, at least under the spec rather than the interface.",
  },
  {
    file: 'src/mock/operations/read-kind.ts',
    scope: 'goneResponse',
    verdict: 'untested',
    reason:
      "The 410 getPet answers past its sunset (5 December 2030), made at start and served only then: no trial runs the mock past the sunset (with `--now` after it, the verifier fails the mock on getPet.petId-spellings, a 410 for `1abc`, which is the verifier's to settle). Untested.",
  },
  {
    file: 'src/mock/operations/read-kind.ts',
    scope: 'retirement',
    code: /^\{\s*const \{ deprecation \}|^\{\s*removal:|^deprecation === undefined$/,
    replacement: /^\{\}$|^true$/,
    verdict: 'missed',
    reason: 'getPet loses its deprecation notice (`Deprecation`, `Sunset`, `Link`) and its 410: the headers are caught by the check proposed above.',
  },
  {
    file: 'src/mock/operations/read-kind.ts',
    scope: 'retirement',
    code: /^deprecation === undefined$/,
    replacement: /!==/,
    verdict: 'missed',
    reason: 'getPet loses its deprecation notice (`Deprecation`, `Sunset`, `Link`) and its 410: the headers are caught by the check proposed above.',
  },
  {
    file: 'src/mock/operations/read-kind.ts',
    code: /^deprecation === undefined$|^replacement\?\.path$/,
    verdict: 'untested',
    reason: `getPet of the bundled spec has a deprecation with a replacement, so nothing changes. ${UNTRIED('a spec with a read operation that has none (`--spec`)')}`,
  },
  {
    file: 'src/mock/operations/read-kind.ts',
    scope: 'replacement',
    replacement: /^true$/,
    verdict: 'equivalent',
    reason: "The first operation of the model is listPets, getPet's replacement itself.",
  },
  {
    file: 'src/mock/operations/read-kind.ts',
    scope: 'replacement',
    replacement: /!==/,
    verdict: 'untested',
    reason:
      "The replacement found is createPet, whose path is listPets' (`/pets`): the `Link` is the same, and only the 410's message past the sunset changes, which no trial reaches.",
  },
  {
    file: 'src/mock/operations/read-kind.ts',
    scope: 'replacement',
    verdict: 'missed',
    reason: 'getPet loses its `Link` to the replacement (and its 410 names none): caught by the check of documented headers proposed above.',
  },
  {
    file: 'src/mock/operations/read-kind.ts',
    scope: 'retirement',
    code: /^sunset === undefined$/,
    verdict: 'untested',
    reason:
      'getPet keeps its notice but would not answer 410 past its sunset (or, for `false`, nothing changes for the bundled spec): no trial runs the mock past the sunset. Untested.',
  },
  {
    file: 'src/mock/operations/read-kind.ts',
    scope: 'responseHeaders',
    code: /^\(status, isRemoved\)|^isRemoved \|\| status === 410$|^status === 410$/,
    replacement: /^\(\) => undefined$|^true$|^status !== 410$/,
    verdict: 'missed',
    reason:
      "getPet's answers before the sunset lose `Deprecation` and `Link` (or all three headers): caught by the check of documented headers proposed above.",
  },
  {
    file: 'src/mock/operations/read-kind.ts',
    scope: 'responseHeaders',
    verdict: 'untested',
    reason:
      'Only a 410 changes (it carries the notice rather than the `Sunset` alone): the mock answers 410 past the sunset, which no trial reaches, or when `Prefer: code=410` forces it. Untested.',
  },
  {
    file: 'src/mock/operations/read-kind.ts',
    scope: 'readKind',
    code: /nonIntegerPetId/,
    verdict: 'outside',
    reason: `The profile's \`nonIntegerPetId: 404\` is no longer applied, or applied without a profile. ${CHOICE}`,
  },
  { file: 'src/mock/operations/read-kind.ts', code: /^['`]No pet has/, verdict: 'outside', reason: MESSAGE },
  // --- pipeline/auth.ts: the bearer check and the --api-key values --------------------------------------
  {
    file: 'src/mock/pipeline/auth.ts',
    scope: 'rejection',
    verdict: 'outside',
    reason: `Which of the four 401s a credential that is not accepted gets: each is the same 401 with \`code: unauthorized\` and \`WWW-Authenticate: Bearer\`, so only the message differs. ${MESSAGE}`,
  },
  { file: 'src/mock/pipeline/auth.ts', scope: 'tokenBounds', verdict: 'outside', reason: `Used only to choose the 401's message (see rejection). ${MESSAGE}` },
  { file: 'src/mock/pipeline/auth.ts', scope: 'AUTH_MESSAGES', verdict: 'outside', reason: MESSAGE },
  {
    file: 'src/mock/pipeline/auth.ts',
    scope: 'isWhitespace',
    verdict: 'outside',
    reason: `Used to choose the 401's message, and at start to refuse a key with whitespace, which no client could send as a Bearer token anyway. ${MESSAGE}`,
  },
  {
    file: 'src/mock/pipeline/auth.ts',
    scope: 'whitespaceIn',
    verdict: 'untested',
    reason: UNTRIED('a mock given a key it must refuse at start, with whitespace in it (`--api-key "two words"`)'),
  },
  {
    file: 'src/mock/pipeline/auth.ts',
    scope: 'apiKeyProblem',
    verdict: 'untested',
    reason: UNTRIED(
      'a mock given a key it must refuse at start: empty (`--api-key ci:` with its variable unset, which would then take an empty token) or with whitespace',
    ),
  },
  {
    file: 'src/mock/pipeline/auth.ts',
    scope: 'keys',
    verdict: 'untested',
    reason: UNTRIED('a mock given a key it must refuse at start (empty, or with whitespace)'),
  },
  {
    file: 'src/mock/pipeline/auth.ts',
    scope: 'parseApiKey',
    verdict: 'untested',
    reason: `\`ci=a-labelled-key\` and \`k\` still read as the trial means them; another spelling of \`--api-key\` (\`ci:key\`, a padded base64 key, \`ci==x\`) may read otherwise. ${UNTRIED('those spellings')}`,
  },
  {
    file: 'src/mock/pipeline/auth.ts',
    scope: 'labelledBy',
    verdict: 'untested',
    reason: `\`ci=a-labelled-key\` and \`k\` still read as the trial means them; another spelling of \`--api-key\` may read otherwise. ${UNTRIED('those spellings')}`,
  },
  {
    file: 'src/mock/pipeline/auth.ts',
    scope: 'isSpaceOrTab',
    code: /0x09/,
    verdict: 'outside',
    reason:
      'A tab between `Bearer` and the token (or around it) is no longer taken: RFC 9110 §11.4 separates the scheme from its credentials by spaces only (`1*SP`), so refusing a tab is as correct as the mock’s leniency, and no verifier may fail either.',
  },
  {
    file: 'src/mock/pipeline/auth.ts',
    scope: 'bearerCheck',
    code: /^length > BEARER\.length$|^i < key\.length$|^start < length$|^end > start$|^end - 1$|^end > start && isSpaceOrTab/,
    replacement: /^true$|^length >= BEARER\.length$|^i <= key\.length$|^start <= length$|^end >= start$|^end <= start$|^end \+ 1$|^false$/,
    verdict: 'equivalent',
    reason:
      'The bounds of the scan change where nothing lies: a header shorter than the scheme fails the letters anyway, a code unit past the end reads as none (NaN, 0 in the comparison), and a field value never ends in spaces or tabs (RFC 9110 §5.5: HTTP parsers and the Fetch Headers strip them), so trailing whitespace never reaches the check.',
  },
  {
    file: 'src/mock/pipeline/auth.ts',
    scope: 'bearerCheck',
    code: /^start < length && isSpaceOrTab|^start < length$/,
    verdict: 'outside',
    reason:
      'More than one space between `Bearer` and the token is no longer taken: RFC 9110 §11.4 allows several (`1*SP`), but mainstream parsers split at the first space (FastAPI’s `get_authorization_scheme_param`), so the verifier does not require it.',
  },
  // --- operations/draft-body.ts: the body of a create as a draft (create-kind.ts's until 0430fac) ------
  {
    file: 'src/mock/operations/draft-body.ts',
    scope: 'draftParser',
    code: /maxBodyBytes \?\? DEFAULT_MAX_BODY_BYTES/,
    verdict: 'untested',
    reason: `The bundled spec's \`x-max-body-bytes\` is the default, 1 MiB, so the limit is the same. ${UNTRIED('a spec with another limit (`--spec`)')}`,
  },
  {
    file: 'src/mock/operations/draft-body.ts',
    scope: 'draftParser',
    code: /categories|^'object'$/,
    verdict: 'outside',
    reason: `The profile's known categories are no longer enforced: a create of another category is accepted. ${CHOICE}`,
  },
  {
    file: 'src/mock/operations/draft-body.ts',
    scope: 'draftParser',
    code: /serverDefault/,
    verdict: 'outside',
    reason: `The profile's \`defaultStatus\` is no longer applied to a pet created without a status. ${CHOICE}`,
  },
  {
    file: 'src/mock/operations/draft-body.ts',
    scope: 'parseBody',
    code: /^'rejection' in read$|^'rejection'$/,
    verdict: 'missed',
    reason:
      'A body that is not UTF-8 gets 413 (payload_too_large) instead of 400: RFC 8259 §8.1 makes such a body no JSON text. Check to add: POST a NewPet holding a byte that is not UTF-8 and expect 400, or at least no 413.',
  },
  {
    file: 'src/mock/operations/draft-body.ts',
    scope: 'parseBody',
    code: /^text\.trim\(\) === ''$|^text\.trim\(\)$|^''$/,
    verdict: 'outside',
    reason:
      "An empty or blank body is refused by the JSON parser instead, with the same 400 (`malformed_json` rather than `bad_request`): no body is no JSON text either, and both are the spec's codes of a 400.",
  },
  {
    file: 'src/mock/operations/draft-body.ts',
    scope: 'parseBody',
    code: /^\{\s*return reject\('malformed_json'/,
    verdict: 'outside',
    reason:
      "Text that is not JSON goes on to the schema check, which refuses it with the same 400 (`bad_request` rather than `malformed_json`): the interface fixes the status; which of the spec's codes of a 400 names it is the spec's description, which a profile's `errorCodes` maps for deployments that spell it otherwise.",
  },
  {
    file: 'src/mock/operations/draft-body.ts',
    scope: 'parseBody',
    code: /^contentType === undefined$/,
    verdict: 'outside',
    reason: `${MESSAGE} (How the 415's message names the Content-Type it got.)`,
  },
  {
    file: 'src/mock/operations/draft-body.ts',
    code: /^['`]The request body|^', '$|^\[\.\.\.knownCategories\]$|^'no Content-Type'$|^`Content-Type/,
    verdict: 'outside',
    reason: MESSAGE,
  },
  {
    file: 'src/mock/operations/draft-body.ts',
    scope: 'parseDraft',
    code: /^value !== undefined$/,
    replacement: /^true$/,
    verdict: 'equivalent',
    reason: LEFT_OUT_UNDEFINED,
  },
  {
    file: 'src/mock/operations/draft-body.ts',
    scope: 'parseDraft',
    code: /serverDefaulted|knownCategories|defaultStatus|^'omitted'$|leftOut/,
    verdict: 'outside',
    reason: `The profile's \`defaultStatus\` or known categories are no longer applied. ${CHOICE}`,
  },
  { file: 'src/mock/operations/draft-body.ts', scope: 'sizeOf', verdict: 'outside', reason: `${MESSAGE} (The size named in the 413's message.)` },
  // --- pipeline/pipeline.ts: the one path every request walks ------------------------------------------
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'authenticate', code: /^'(auth|route)'$/, verdict: 'outside', reason: JOURNAL },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'authenticate', verdict: 'outside', reason: MESSAGE },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'preflight',
    code: /^''$/,
    verdict: 'equivalent',
    reason: 'The 204 to an OPTIONS gets a body, which every host drops: a 204 has no content on the wire (`wireBody`, RFC 9110 §15.3.5).',
  },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'preflight',
    verdict: 'outside',
    reason:
      "The 204 to an OPTIONS loses its `Allow` and CORS headers, or names fewer methods: the interface says nothing of OPTIONS or CORS, RFC 9110 §9.3.7 makes `Allow` there optional, and FastAPI's own answer to an OPTIONS (a 405) names only the methods of the path's first route, so no verifier may fail a partial list.",
  },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'notServed', verdict: 'outside', reason: UNDEFINED_PATHS },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'elsewhere', verdict: 'outside', reason: UNDEFINED_PATHS },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'operationsList', verdict: 'outside', reason: `${MESSAGE} (The operations a 404 names.)` },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'respondTo', code: /^target\.area === 'admin'$|^'admin'$/, verdict: 'outside', reason: PLUMBING },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'respondTo',
    code: /^target\.area === 'elsewhere'$|^'elsewhere'$/,
    verdict: 'outside',
    reason: UNDEFINED_PATHS,
  },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'respondTo', code: /^'route'$/, verdict: 'outside', reason: JOURNAL },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'respondTo',
    code: /^request\.method === 'OPTIONS'$|^'OPTIONS'$/,
    verdict: 'outside',
    reason:
      'An OPTIONS is answered as any undocumented method (401 without a key, 405 with one) instead of a 204: the interface says nothing of OPTIONS, RFC 9110 §9.3.7 lets a resource not support it, and FastAPI answers it 405.',
  },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'respondTo',
    code: /^request\.method === 'HEAD'$|^'HEAD'$|^'GET'$/,
    verdict: 'outside',
    reason:
      "A HEAD is answered 405 instead of as a GET without its body: the interface names GET only, and FastAPI's routes answer HEAD 405 (its `APIRoute` does not add HEAD to a GET route), so the verifier allows anything but a 5xx.",
  },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'respondTo',
    code: /^!context\.reached\?\.operation\.removal$/,
    replacement: /^false$/,
    verdict: 'equivalent',
    reason: 'Every request reads its session clock first: for an operation without a sunset `removed` stays false, as before; it only costs a read.',
  },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'respondTo', code: /removal/, verdict: 'untested', reason: PAST_SUNSET },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'respondTo',
    code: /SESSION_HEADER/,
    verdict: 'outside',
    reason: `A named session's clock is not read for the sunset. ${SESSIONS}`,
  },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'removalKnown',
    code: /^context\.reached\?\.operation$|^removal !== undefined$/,
    replacement: /^context\.reached\.operation$|^true$/,
    verdict: 'equivalent',
    reason: 'Step 1 calls it only for an operation it reached that has a sunset, so `reached` and `removal` are there.',
  },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'removalKnown', verdict: 'untested', reason: PAST_SUNSET },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'operationSteps',
    verdict: 'outside',
    reason: `Preferences are not read, and a session name that is none is not refused. ${PREFER} ${SESSIONS}`,
  },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'checkSessionName', verdict: 'outside', reason: SESSIONS },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'checkPreferences', verdict: 'outside', reason: PREFER },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'wait',
    code: /^delay > 0$/,
    replacement: /^true$|^delay >= 0$/,
    verdict: 'equivalent',
    reason: 'A request without a delay waits for a timer of 0 ms: the same answer, a tick later.',
  },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'wait', verdict: 'outside', reason: PREFER },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'afterDelay',
    code: /^respondIfRemoved\(context, reached\) \?\? rejectInputs\(context, reached\)$/,
    verdict: 'untested',
    reason: PAST_SUNSET,
  },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'afterDelay',
    verdict: 'outside',
    reason: `A forced answer is not made; the inputs' 400 is still made by step 7. ${PREFER}`,
  },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'respondIfRemoved', verdict: 'untested', reason: PAST_SUNSET },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'rejectInputs', code: /^'validation'$/, verdict: 'outside', reason: JOURNAL },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'rejectInputs',
    verdict: 'outside',
    reason: `The 400 of the path and query is made by step 7 instead, the same answer, unless \`Prefer: code=\` or a fault pre-empts it. ${PREFER}`,
  },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'respondIfForced', verdict: 'outside', reason: PREFER },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'parseBody', code: /^'validation'$/, verdict: 'outside', reason: JOURNAL },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'parseBody',
    code: /sessionName/,
    verdict: 'outside',
    reason: `A named session's requests read the default session. ${SESSIONS}`,
  },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'withHeaders',
    code: /^response\.prepared !== undefined$/,
    replacement: /^false$/,
    verdict: 'equivalent',
    reason: "getPet's headers are merged into a plain record rather than a prepared set: the same headers, made per answer.",
  },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'withHeaders',
    verdict: 'outside',
    reason: `Only getPet's answers made with headers of their own, which are the forced ones (\`Prefer: code=401\`, \`429\`, \`503\`), fail to merge its deprecation headers and throw; every other answer is prepared and unchanged. ${PREFER}`,
  },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'withPreferenceApplied', verdict: 'outside', reason: PREFER },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'withLogDetail', verdict: 'outside', reason: PLUMBING },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'finish',
    code: /^pipeline\.form$/,
    verdict: 'outside',
    reason: `The profile's form (its Error codes, its charset) is not applied. ${CHOICE}`,
  },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'finish', code: /^fault === undefined$/, verdict: 'outside', reason: PREFER },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'finish',
    verdict: 'outside',
    reason: `What follows the answer for the mock's own tools: the self-check, coverage counting, the journal and the rule it names; the answer is unchanged. ${PLUMBING}`,
  },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'journal', verdict: 'outside', reason: JOURNAL },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'context', code: /^'operation'$|request\.started/, verdict: 'outside', reason: JOURNAL },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'context',
    code: /^false$/,
    verdict: 'outside',
    reason: `\`removed\` is read for an operation without a sunset only by the self-check (\`--self-check\`), and \`forced\` only for \`Preference-Applied\`; step 1 sets \`removed\` for getPet. ${PREFER}`,
  },
  // --- pipeline/prefer.ts: the mock's own preferences ----------------------------------------------------
  {
    file: 'src/mock/pipeline/prefer.ts',
    verdict: 'outside',
    reason: `How the mock reads its own preferences. The verifier sends the standard ones (\`Prefer: return=minimal\`, \`handling=lenient\`, an unknown preference; RFC 7240 says to ignore what a server does not honour), so a mutant that refused them or failed on them is killed; what survives changes only the mock's own. ${PREFER}`,
  },
  // --- pipeline/router.ts: where a request-target leads ----------------------------------------------------
  {
    file: 'src/mock/pipeline/router.ts',
    scope: 'createRouter',
    code: /^operation === undefined$/,
    verdict: 'untested',
    reason: `The bundled spec's operations are all implemented, so the check at start passes either way. ${UNTRIED('a spec with an operation the mock does not implement (`--spec`), which would then start and throw on its first request')}`,
  },
  {
    file: 'src/mock/pipeline/router.ts',
    scope: 'target',
    code: /^\[\]$/,
    verdict: 'equivalent',
    reason: 'Every route has its operations in `served`, made at start from the same routes: the fallback is never taken (so no trial executes it: untested).',
  },
  {
    file: 'src/mock/pipeline/router.ts',
    scope: 'target',
    code: /^'api'$/,
    verdict: 'equivalent',
    reason: "The pipeline tells the areas apart by `'admin'` and `'elsewhere'` only: any other value is the API.",
  },
  {
    file: 'src/mock/pipeline/router.ts',
    scope: 'target',
    code: /^mark === -1$|^-1$|^''$/,
    verdict: 'equivalent',
    reason:
      'A target without a query gets its own text (or a word) as its query: a parameter of that name, which no operation documents and which every operation ignores; the list, the only operation with query parameters, has the target `/v1/pets`, whose name holds no `=` or `&`.',
  },
  {
    file: 'src/mock/pipeline/router.ts',
    scope: 'target',
    verdict: 'outside',
    reason: `Paths outside the base path are routed as API paths, or crash: the admin endpoints are lost, and a path outside the base URL given to the mock's clients (\`/\`, the favicon) gets a 401, a 404 or a 500. ${UNDEFINED_PATHS} Outside the base URL is no request of the API: a verifier is given the base URL, and a host may serve anything beside it.`,
  },
  {
    file: 'src/mock/pipeline/router.ts',
    code: /^`\$\{basePath\}\/`$|^path === basePath/,
    verdict: 'outside',
    reason: `Paths outside the base path are taken for API paths (the admin endpoints then lost), or the base path itself for a path outside it. ${UNDEFINED_PATHS} ${PLUMBING}`,
  },
  {
    file: 'src/mock/pipeline/router.ts',
    scope: 'serves',
    verdict: 'untested',
    reason: UNTRIED('the MSW handlers (`createHandlers`), whose filter then lets every request of the API through to the network'),
  },
  // --- state/store.ts: one session's pets ------------------------------------------------------------
  {
    file: 'src/mock/state/store.ts',
    scope: 'petOf',
    verdict: 'equivalent',
    reason: 'A field the draft leaves undefined is kept as `undefined`, which the JSON of the pet leaves out as before.',
  },
  {
    file: 'src/mock/state/store.ts',
    scope: 'insertById',
    replacement: /^false$|<= 0$/,
    verdict: 'equivalent',
    reason: 'The binary search puts the entry where pushing it would (its id is above the last), and no two entries of a list share an id.',
  },
  {
    file: 'src/mock/state/store.ts',
    scope: 'insertById',
    verdict: 'outside',
    reason: `The session's own pets lose their id order when one is added below the last (random ids, the profile's): a page shows its pets in another order, or a full page other pets, and a page shorter than its limit still shows every pet once, which the verifier checks. ${CHOICE}`,
  },
  {
    file: 'src/mock/state/store.ts',
    scope: 'merge',
    code: /^seeded\.length - 1$/,
    verdict: 'missed',
    reason:
      "In a listing in descending id order (the profile's), the seeded pets never reach a page, though each is still read by its id: a page shorter than its limit lacks pets that exist. The verifier checks that invariant for every pet it has seen, and this mock shows it none of them, so it looks like a deployment that started empty. No check derivable from the interface alone: it would need ids the deployment never showed (only a client that knows the mock's seeded pets, docs/mock-data.md, can tell).",
  },
  {
    file: 'src/mock/state/store.ts',
    scope: 'merge',
    code: /^seeded\[i\] !== undefined|^i \+= step$/,
    verdict: 'untested',
    reason: `A hidden seeded pet is listed, or the merge throws at the end of the seed. ${UNTRIED('Only a session that hides a seeded pet changes: one whose seeded pet was replaced or removed, which takes a `--spec` with a replace or delete operation, `POST /__mock/pets`, or a restart with `--state` that restores them (the bundled spec has neither operation, and creates take new ids)')}`,
  },
  {
    file: 'src/mock/state/store.ts',
    scope: 'merge',
    replacement: /< 0\)$|< 0$/,
    verdict: 'equivalent',
    reason: 'Two entries of a page never compare equal: every order ends with the id, and no two pets share one.',
  },
  {
    file: 'src/mock/state/store.ts',
    scope: 'merge',
    verdict: 'outside',
    reason: `The session's own pets and the seeded ones are merged in another order: a page shows its pets in another order, or a full page other pets, and each pet still once, so a page shorter than its limit still shows every pet (which the verifier checks). ${CHOICE}`,
  },
  {
    file: 'src/mock/state/store.ts',
    scope: 'MemoryPetStore',
    code: /^\[\]$|^false$/,
    verdict: 'equivalent',
    reason: 'The constructor resets the store, which sets the field again.',
  },
  {
    file: 'src/mock/state/store.ts',
    scope: 'MemoryPetStore.size',
    verdict: 'outside',
    reason: `How many pets a session holds, which only the admin endpoints report. ${PLUMBING}`,
  },
  { file: 'src/mock/state/store.ts', scope: 'MemoryPetStore.create', code: /numbered/, verdict: 'outside', reason: IDS },
  { file: 'src/mock/state/store.ts', scope: 'MemoryPetStore.create', code: /^'created'$/, verdict: 'untested', reason: RESTART },
  {
    file: 'src/mock/state/store.ts',
    scope: 'MemoryPetStore.listJson',
    verdict: 'equivalent',
    reason: "A page of an unchanged session is serialized into the session's cache rather than the seed's: the same text.",
  },
  { file: 'src/mock/state/store.ts', scope: 'MemoryPetStore.saved', verdict: 'untested', reason: RESTART },
  { file: 'src/mock/state/store.ts', scope: 'MemoryPetStore.restore', verdict: 'untested', reason: RESTART },
  {
    file: 'src/mock/state/store.ts',
    scope: 'MemoryPetStore.#add',
    code: /^value !== undefined$/,
    verdict: 'equivalent',
    reason: 'A pet without a filter value is also kept under `undefined`, a list no page reads: a page without a filter reads every own pet.',
  },
  {
    file: 'src/mock/state/store.ts',
    scope: 'MemoryPetStore.#add',
    verdict: 'untested',
    reason: `A pet added in place of another is listed twice, or the count of hidden seeded pets is off (for a create, only in the count the admin reports). ${UNTRIED('Only a session that hides a seeded pet changes: one whose seeded pet was replaced or removed, which takes a `--spec` with a replace or delete operation, `POST /__mock/pets`, or a restart with `--state` that restores them (the bundled spec has neither operation, and creates take new ids)')}`,
  },
  {
    file: 'src/mock/state/store.ts',
    scope: 'MemoryPetStore.#valueOf',
    code: /^field === undefined$/,
    verdict: 'equivalent',
    reason: 'Without a filter field, the value read is a field named `undefined`, which no pet has: `undefined` as before.',
  },
  { file: 'src/mock/state/store.ts', scope: 'MemoryPetStore.#valueOf', verdict: 'untested', reason: UNTRIED('a spec whose list has no filter (`--spec`)') },
  {
    file: 'src/mock/state/store.ts',
    scope: 'MemoryPetStore.#nextId',
    code: /^this\.#seed\.randomIds$|^this\.#largest \+ 1n$/,
    verdict: 'outside',
    reason: `${IDS} Each id is still checked against those taken, so none is given twice.`,
  },
  {
    file: 'src/mock/state/store.ts',
    scope: 'MemoryPetStore.#nextId',
    verdict: 'untested',
    reason: UNTRIED(
      'your own data with random ids (`--data` and a profile with `idScheme: random`), or pets put by `POST /__mock/pets`, where the id a create draws may be taken',
    ),
  },
  {
    file: 'src/mock/state/store.ts',
    scope: 'MemoryPetStore.#taken',
    verdict: 'untested',
    reason: UNTRIED(
      'your own data with random ids (`--data` and a profile with `idScheme: random`), or pets put by `POST /__mock/pets`, where the id a create draws may be taken',
    ),
  },
  {
    file: 'src/mock/state/store.ts',
    scope: 'MemoryPetStore.#entry',
    verdict: 'equivalent',
    reason: "The session's changes are looked up even when there are none: the same pet, a lookup later.",
  },
  {
    file: 'src/mock/state/store.ts',
    scope: 'MemoryPetStore.#page',
    code: /^\[\.\.\.own\]\.sort\(seed\.compare\)$/,
    verdict: 'outside',
    reason: `In a listing ordered by a field, the session's own pets are merged unsorted: the order of a page, or which pets a full page shows, changes; each pet is still on it once. ${CHOICE}`,
  },
  {
    file: 'src/mock/state/store.ts',
    scope: 'MemoryPetStore.#page',
    code: /^\(\) => \[\.\.\.own\]|^\[\.\.\.own\]$|^value \?\? ALL$/,
    verdict: 'untested',
    reason: `In a listing ordered by a field, the session's own pets are dropped from pages, or a filtered page reads the cache of another filter, or the listing throws. ${UNTRIED('a profile whose list is ordered by a field (`listOrder: name` or `status`)')}`,
  },
  {
    file: 'src/mock/state/store.ts',
    scope: 'MemoryPetStore.#page',
    code: /^this\.#hidden === 0$/,
    replacement: /^false$/,
    verdict: 'equivalent',
    reason: 'The filter of hidden pets is made when none is hidden: it hides nothing.',
  },
  {
    file: 'src/mock/state/store.ts',
    scope: 'MemoryPetStore.#page',
    code: /#hidden|#changed\.has/,
    verdict: 'untested',
    reason: UNTRIED(
      'Only a session that hides a seeded pet changes: one whose seeded pet was replaced or removed, which takes a `--spec` with a replace or delete operation, `POST /__mock/pets`, or a restart with `--state` that restores them (the bundled spec has neither operation, and creates take new ids)',
    ),
  },
  {
    file: 'src/mock/state/store.ts',
    scope: 'MemoryPetStore.#page',
    verdict: 'outside',
    reason: `A page in id order is merged as one in a field's order, or the other way round: at most the order of a page, or which pets a full page shows, changes; each pet is on it once. ${CHOICE}`,
  },
  // --- state/sessions.ts: the default session and the named ones ------------------------------------
  {
    file: 'src/mock/state/sessions.ts',
    scope: 'sessionName',
    verdict: 'outside',
    reason: `An \`X-Mock-Session\` header is ignored (every request reads the default session), or refused otherwise. ${SESSIONS}`,
  },
  {
    file: 'src/mock/state/sessions.ts',
    scope: 'Sessions.open',
    code: /^name === DEFAULT_SESSION$/,
    replacement: /^true$/,
    verdict: 'outside',
    reason: `Every named session is the default one. ${SESSIONS}`,
  },
  {
    file: 'src/mock/state/sessions.ts',
    scope: 'Sessions.open',
    code: /^name === DEFAULT_SESSION$/,
    verdict: 'untested',
    reason: `The default session is opened as a named one: a client of the interface keeps its pets, but a mock started with \`--max-sessions 0\` would answer 429 to every request that reads them, and one idle past \`--session-ttl\` would lose them. ${UNTRIED('`--max-sessions 0` or a client idle past `--session-ttl`')}`,
  },
  {
    file: 'src/mock/state/sessions.ts',
    scope: 'Sessions.find',
    code: /^name === DEFAULT_SESSION$/,
    replacement: /^true$/,
    verdict: 'outside',
    reason: `A named session reads the default one's clock and pets in the admin endpoints. ${SESSIONS}`,
  },
  {
    file: 'src/mock/state/sessions.ts',
    scope: 'Sessions.find',
    verdict: 'outside',
    reason:
      "The default session is not found where only the mock's own tools look for it: the clock `POST /__mock/clock` moved (a session's clock reads the base clock, which `--now` sets, unless that endpoint moved it), `mock.reset()` and `POST /__mock/reset`, and the admin's counts. The API's answers, which open the session, are unchanged. Mock-only plumbing.",
  },
  {
    file: 'src/mock/state/sessions.ts',
    scope: 'Sessions.now',
    verdict: 'untested',
    reason:
      "The session's clock reads nothing, so getPet never answers its 410 past the sunset (5 December 2030): no trial runs the mock past the sunset (with `--now` after it, the verifier fails the mock on getPet.petId-spellings, a 410 for `1abc`). Untested.",
  },
  {
    file: 'src/mock/operations/read-kind.ts',
    scope: 'retirement',
    code: /^\{ sunset:|^\{ at:/,
    verdict: 'untested',
    reason: "The 410 past getPet's sunset loses its `Sunset`, or never comes: no trial runs the mock past the sunset. Untested.",
  },
];
