/**
 * The triage of every mutant that survives petstore-verify (scripts/mutation-report.ts applies it).
 * A rule covers the survivors of one file, optionally only inside one named declaration (`scope`),
 * only where the mutated code matches `code`, or only for some Stryker mutators. The first rule that
 * matches wins, so narrow rules come before broad ones.
 */

/** `equivalent`: no change a deployment shows to the verifier. `missed`: a contract-visible change it does not catch. */
export type Verdict = 'equivalent' | 'missed';

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
  /** Why: for `equivalent`, why no answer changes; for `missed`, the check that would catch it. */
  readonly reason: string;
}

// Reasons shared by many rules.
const MESSAGE =
  'Only the text of an Error `message` (or of a log line) changes; the interface leaves the message free, so status, `code` and headers are what a verifier may judge, and they are unchanged.';
const STARTUP =
  "Runs only when the mock starts, checking its own options or seed; the verifier's deployments are started with valid options, so no answer changes.";
const PREFER =
  'Mock-only feature: `Prefer: code=, delay=, auth=expired` and their `__code` query twins are how tests force answers from the mock; the interface has no such header, and no verifier of it sends one.';
const SESSIONS =
  'Mock-only feature: named sessions (`X-Mock-Session`) isolate parallel tests; the interface has no sessions, and a deployment is checked through its one default state.';
const OUTSIDE =
  'Outside the documented operations: OPTIONS preflights, HEAD, paths and methods the spec does not document. The interface says nothing about them, so a deployment may answer them as it likes.';
const CACHE = 'A cache or a performance detail: the answers are the same, only how (or how often) they are computed changes.';
const PLUMBING =
  'Mock-only plumbing: persistence to a state file, the self-check, coverage counting, key labels in the request log, admin routes, the MSW `serves` filter; none is part of an answer a deployment gives the verifier.';
const SUNSET_ONLY = "Reached only after getPet's sunset (5 December 2030): the mock's clock is the real one, so before then no deployment can show it.";

export const TRIAGE: readonly TriageRule[] = [
  // --- missed: contract-visible changes the verifier does not catch today -------------------------
  {
    file: 'src/mock/operations/getPet.ts',
    scope: 'carries',
    code: /status === 410/,
    replacement: /^false$/,
    verdict: 'equivalent',
    reason: `Every answer then carries the deprecation notice, 410 included. ${SUNSET_ONLY}`,
  },
  {
    file: 'src/mock/operations/getPet.ts',
    scope: 'removed',
    verdict: 'equivalent',
    reason: `The headers of the 410. ${SUNSET_ONLY}`,
  },
  {
    file: 'src/mock/operations/getPet.ts',
    scope: 'deprecationHeaders',
    code: /^\{|successor-version/,
    verdict: 'missed',
    reason:
      "getPet's answers lose `Deprecation`, `Sunset` or `Link`, which the spec documents on every answer of getPet. The verifier's getPet.deprecation check only warns when they are absent. Check to add (verify/probes, src/contracts/checks/get.ts): fail getPet when a documented deprecation header is absent or its `Link` does not name the replacement.",
  },
  {
    file: 'src/mock/operations/getPet.ts',
    scope: 'carries',
    verdict: 'missed',
    reason:
      "getPet's 200 and 404 lose `Deprecation` and `Link` (or all three headers). Same check as above: fail when a documented deprecation header is absent from any getPet answer, errors included.",
  },
  {
    file: 'src/mock/operations/createPet.ts',
    code: /location|\/pets\/\$\{pet\.id\}/,
    verdict: 'missed',
    reason:
      'The 201 loses its `Location` header, which the spec documents (`/v1/pets/{id}`). Check to add (verify/probes, src/contracts/checks/create.ts): the 201 carries `Location` ending in `/pets/<the id in the body>`.',
  },
  {
    file: 'src/mock/operations/createPet.ts',
    code: /^mediaTypeProblem !== undefined$/,
    replacement: /^false$/,
    verdict: 'missed',
    reason:
      'A body sent as `text/plain` is accepted instead of refused with 415, which the spec documents. Check to add (probes): POST a valid NewPet with `Content-Type: text/plain` and expect 415 (or 400) with an Error body, and no pet created.',
  },
  {
    file: 'src/mock/operations/createPet.ts',
    code: /^text === undefined$/,
    verdict: 'missed',
    reason:
      'A body over 1 MiB (`x-max-body-bytes`) gets a 500 instead of the documented 413. Check to add (probes): POST 1 MiB + 1 byte of JSON and expect 413 with an Error body (one write, within the budget).',
  },
  {
    file: 'src/mock/operations/createPet.ts',
    code: /^text\.trim\(\) === ''$/,
    replacement: /^true$|!==/,
    verdict: 'missed',
    reason:
      'Every NewPet is refused with 400. The verifier then skips its create checks ("the deployment refused the NewPet") and passes. Check to change (verify/probes, positive data acceptance): a deployment that refuses the spec\'s own example NewPet fails createPet instead of skipping.',
  },
  {
    file: 'src/mock/operations/createPet.ts',
    code: /body = parseJson\(text\)/,
    verdict: 'missed',
    reason: 'Every NewPet is refused with 400, which the verifier skips instead of failing: see the rule above (positive data acceptance).',
  },
  {
    file: 'src/mock/operations/createPet.ts',
    code: /^'unsupported_media_type'$|^'payload_too_large'$/,
    verdict: 'missed',
    reason:
      "The 415 or 413 carries an empty `code`, outside the spec's `x-error-codes`. Caught by the 415 and 413 checks proposed above, which would also check the Error body.",
  },
  {
    file: 'src/mock/operations/createPet.ts',
    code: /^'bad_request'$/,
    verdict: 'missed',
    reason:
      "An empty body is refused with an empty `code`, outside the spec's `x-error-codes`. Check to add (probes, bodies): POST with an empty body and expect 400 with an Error body whose `code` is in `x-error-codes`.",
  },
  {
    file: 'src/mock/pipeline/auth.ts',
    scope: 'bearerCheck',
    code: /BEARER\.charCodeAt\(i\)|i < BEARER\.length|^!scheme \|\| !isSpaceOrTab/,
    verdict: 'missed',
    reason:
      'The scheme is no longer checked: `Digest <key>`, `Bearer:<key>` or `Basic  <key>` (any six characters, then a separator) is accepted. Check to add (probes): the real key under a six-letter scheme other than Bearer (`Digest <key>`) and glued to the scheme (`Bearer:<key>`) is refused with 401.',
  },
  {
    file: 'src/mock/pipeline/auth.ts',
    scope: 'UNAUTHORIZED_HEADERS',
    verdict: 'missed',
    reason:
      'The 401 loses `WWW-Authenticate: Bearer`, which the spec documents (and RFC 9110 requires). Check to add (verify/probes, checks/auth.ts): every 401 carries `WWW-Authenticate` naming the Bearer scheme.',
  },
  {
    file: 'src/mock/state/store.ts',
    scope: 'pageKey',
    code: /PET_STATUSES\.length \+ 1|^limit \* \(PET_STATUSES\.length \+ 1\)$/,
    verdict: 'missed',
    reason:
      'Two different pages share one cache key (for example `?limit=1&status=sold` and `?limit=2&status=available`), so one is answered with the other. Check to add (probes, combinations): list with several limit and status pairs in one run and check each page against its own filter and size.',
  },
  {
    file: 'src/mock/state/store.ts',
    scope: 'MemoryPetStore.#entry',
    code: /^typeof id === 'bigint'$/,
    verdict: 'missed',
    reason:
      'With ids beyond 2^53, `GET /pets/1` (a small id the deployment never gave) gets a 500 instead of a 404. Check to add (verify/probes, checks/get.ts): getPet of an id unlike any the deployment gives (1, and 2^63-1) answers 404, never 5xx.',
  },

  ...[
    { file: 'src/mock/pipeline/pipeline.ts', scope: 'answerApi', code: /^!target\.route$|^!reached$/ },
    { file: 'src/mock/pipeline/pipeline.ts', scope: 'notServed', replacement: /=> undefined/ },
    { file: 'src/mock/pipeline/router.ts', code: /^match === undefined$/ },
  ].map(
    (where): TriageRule => ({
      ...where,
      verdict: 'missed',
      reason:
        "An authenticated request to a path or a method the spec does not document (`GET /v1/nope`, `DELETE /v1/pets`) gets a 5xx instead of a 4xx. The interface does not define those answers, but a server error is never a correct one. Check to add (probes, like Schemathesis's not_a_server_error): with the valid key, an undocumented path and an undocumented method answer 4xx with an Error body.",
    }),
  ),

  // --- equivalent: no answer a deployment gives the verifier changes -------------------------------
  { file: 'src/mock/pipeline/prefer.ts', verdict: 'equivalent', reason: PREFER },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'operate', code: /forced/, verdict: 'equivalent', reason: PREFER },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'conclude', code: /forced|applied|delay/, verdict: 'equivalent', reason: PREFER },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'answerApi', code: /prefer|delay|preferences|^'error'$/, verdict: 'equivalent', reason: PREFER },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'operate', code: /forcedResponse|preferences/, verdict: 'equivalent', reason: PREFER },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'operate',
    code: /refusal/,
    verdict: 'equivalent',
    reason: `Refused inputs are refused again one step later (\`proceed\`); only a forced answer would now win over the 400. ${PREFER}`,
  },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'conclude', code: /^preferences$|preference-applied/, verdict: 'equivalent', reason: PREFER },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'later', verdict: 'equivalent', reason: PREFER },
  { file: 'src/mock/state/sessions.ts', verdict: 'equivalent', reason: SESSIONS },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'answerApi', code: /name|session|header|^'bad_request'$/i, verdict: 'equivalent', reason: SESSIONS },
  { file: 'src/mock/pipeline/pipeline.ts', code: /^!session$/, verdict: 'equivalent', reason: `${SESSIONS} (The 429 past the cap on sessions.)` },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'preflight', verdict: 'equivalent', reason: OUTSIDE },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'PREFLIGHT_HEADERS', verdict: 'equivalent', reason: OUTSIDE },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'answerApi', code: /OPTIONS|HEAD|^!target\.route$|^!reached$/, verdict: 'equivalent', reason: OUTSIDE },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'reached', verdict: 'equivalent', reason: OUTSIDE },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'route',
    verdict: 'equivalent',
    reason: `${OUTSIDE} (Paths outside the base path, and the admin endpoints.)`,
  },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'answerApi', code: /not allowed|allow|^''$/, verdict: 'equivalent', reason: OUTSIDE },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    code: /made = failure\(error\)/,
    verdict: 'equivalent',
    reason: 'Reached only when a step throws, which none does for a request of the interface; the answers are the same.',
  },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'withHeaders', verdict: 'equivalent', reason: CACHE },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'operationsList', verdict: 'equivalent', reason: MESSAGE },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'notServed', verdict: 'equivalent', reason: `${OUTSIDE} (The 404 for a path no operation serves.)` },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'failure', verdict: 'equivalent', reason: MESSAGE },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'logDetail', verdict: 'equivalent', reason: PLUMBING },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'conclude', code: /selfCheck|reached|keyLabel|session/, verdict: 'equivalent', reason: PLUMBING },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'trace',
    verdict: 'equivalent',
    reason: 'The trace starts with every field undefined either way: an empty object reads the same.',
  },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    code: /conclude\(trace, failure\(error\)\)/,
    verdict: 'equivalent',
    reason: 'Handles an operation whose promise rejects; the in-memory store never rejects, so no request reaches it.',
  },
  { file: 'src/mock/pipeline/router.ts', code: /operation === undefined/, verdict: 'equivalent', reason: STARTUP },
  { file: 'src/mock/pipeline/router.ts', scope: 'isAdminPath', verdict: 'equivalent', reason: PLUMBING },
  { file: 'src/mock/pipeline/router.ts', scope: 'serves', verdict: 'equivalent', reason: PLUMBING },
  {
    file: 'src/mock/pipeline/router.ts',
    scope: 'target',
    code: /^mark === -1$|^''$|^-1$/,
    verdict: 'equivalent',
    reason:
      'The query of a target without `?` becomes the path itself or a made-up string; neither carries `limit` or `status`, so the defaults apply as before.',
  },
  { file: 'src/mock/pipeline/router.ts', verdict: 'equivalent', reason: `${OUTSIDE} (Which paths count as under the base path.)` },
  { file: 'src/mock/create-mock-api.ts', verdict: 'equivalent', reason: PLUMBING },
  { file: 'src/mock/pipeline/auth.ts', scope: 'AUTH_MESSAGES', verdict: 'equivalent', reason: MESSAGE },
  {
    file: 'src/mock/pipeline/auth.ts',
    scope: 'refusal',
    verdict: 'equivalent',
    reason: `Chooses which of the four 401 messages to send (missing, scheme, empty, key); each is the same 401 \`unauthorized\` with \`WWW-Authenticate\`. ${MESSAGE}`,
  },
  { file: 'src/mock/pipeline/auth.ts', scope: 'tokenBounds', verdict: 'equivalent', reason: 'Used only by `refusal` to choose the 401 message: see above.' },
  {
    file: 'src/mock/pipeline/auth.ts',
    scope: 'isWhitespace',
    verdict: 'equivalent',
    reason: 'Used only to choose the 401 message and to check keys at start.',
  },
  { file: 'src/mock/pipeline/auth.ts', scope: 'whitespaceIn', verdict: 'equivalent', reason: STARTUP },
  { file: 'src/mock/pipeline/auth.ts', scope: 'apiKeyProblem', verdict: 'equivalent', reason: STARTUP },
  {
    file: 'src/mock/pipeline/auth.ts',
    scope: 'parseApiKey',
    verdict: 'equivalent',
    reason: `${STARTUP} (It reads \`--api-key label=key\` on the command line.)`,
  },
  { file: 'src/mock/pipeline/auth.ts', code: /^\/\^\[A-Za-z\]/, verdict: 'equivalent', reason: `${STARTUP} (The pattern of a key's label.)` },
  {
    file: 'src/mock/pipeline/auth.ts',
    code: /^'petstore-dev-key'$/,
    verdict: 'equivalent',
    reason: 'The default key, used only when none is given; the trials give the key.',
  },
  { file: 'src/mock/pipeline/auth.ts', scope: 'keys', verdict: 'equivalent', reason: STARTUP },
  {
    file: 'src/mock/pipeline/auth.ts',
    scope: 'bearerCheck',
    code: /start|end|length > BEARER\.length|i < key\.length/,
    verdict: 'equivalent',
    reason:
      'How many spaces around the token are tolerated, or a comparison one past the key that reads 0 either way. The interface fixes the form `Bearer <API_KEY>` with one space, and HTTP parsers strip the spaces after a header value, so a client of the interface sees the same answers.',
  },
  {
    file: 'src/mock/pipeline/auth.ts',
    scope: 'isSpaceOrTab',
    verdict: 'equivalent',
    reason: 'A tab between `Bearer` and the token: see above, the interface fixes one space.',
  },
  { file: 'src/mock/operations/parameters.ts', scope: 'describeErrors', verdict: 'equivalent', reason: MESSAGE },
  { file: 'src/mock/operations/parameters.ts', scope: 'phrase', verdict: 'equivalent', reason: MESSAGE },
  { file: 'src/mock/operations/parameters.ts', scope: 'fieldName', verdict: 'equivalent', reason: MESSAGE },
  { file: 'src/mock/operations/parameters.ts', scope: 'valueAt', verdict: 'equivalent', reason: MESSAGE },
  { file: 'src/mock/operations/parameters.ts', scope: 'TYPE_PHRASES', verdict: 'equivalent', reason: MESSAGE },
  { file: 'src/mock/operations/parameters.ts', code: /an integer from/, verdict: 'equivalent', reason: MESSAGE },
  {
    file: 'src/mock/operations/parameters.ts',
    scope: 'coerceParameter',
    code: /schema\.type !== 'integer'/,
    verdict: 'equivalent',
    reason: 'Digits given for `status` become a number instead of a string; either way they are not a PetStatus and the answer is the same 400.',
  },
  { file: 'src/mock/operations/parameters.ts', scope: 'readParameters', code: /range/i, verdict: 'equivalent', reason: MESSAGE },
  { file: 'src/mock/operations/parameters.ts', scope: 'rangeOf', verdict: 'equivalent', reason: MESSAGE },
  {
    file: 'src/mock/operations/parameters.ts',
    code: /RANGE_KEYWORDS|'type', 'format'|^'(type|format|minimum|maximum)'$|integerRanges/,
    verdict: 'equivalent',
    reason: MESSAGE,
  },
  {
    file: 'src/mock/operations/parameters.ts',
    scope: 'readParameters',
    verdict: 'equivalent',
    reason: 'An absent parameter is kept as `undefined` instead of left out; the validator fills in the default for both alike.',
  },
  { file: 'src/mock/operations/getPet.ts', code: /was removed on|answer|SUNSET_MS/, verdict: 'equivalent', reason: SUNSET_ONLY },
  { file: 'src/mock/operations/getPet.ts', code: /No pet has id|The path/, verdict: 'equivalent', reason: MESSAGE },
  { file: 'src/mock/operations/listPets.ts', code: /The query/, verdict: 'equivalent', reason: MESSAGE },
  { file: 'src/mock/operations/inputs.ts', scope: 'refusal', verdict: 'equivalent', reason: MESSAGE },
  {
    file: 'src/mock/operations/inputs.ts',
    scope: 'parametersIn',
    verdict: 'equivalent',
    reason: "Every parameter instead of one location's: listPets has only query parameters and getPet only a path one, so the lists are the same.",
  },
  {
    file: 'src/mock/operations/inputs.ts',
    scope: 'exactInteger',
    verdict: 'equivalent',
    reason: 'The value sent instead of the value checked: for an integer within 2^53 they are the same number.',
  },
  {
    file: 'src/mock/operations/createPet.ts',
    code: /^text\.trim\(\) === ''$|^text\.trim\(\)$|^''$/,
    verdict: 'equivalent',
    reason:
      'An empty or blank body is refused by the JSON parser instead, with the same 400 (`malformed_json` rather than `bad_request`; the interface does not list `code` values).',
  },
  {
    file: 'src/mock/operations/createPet.ts',
    code: /not valid JSON|^\{ return refuse\('malformed_json'/,
    verdict: 'equivalent',
    reason: 'Malformed JSON then reaches the validator as `undefined` and gets the same 400 with another message.',
  },
  { file: 'src/mock/operations/createPet.ts', code: /^'createPet'$/, verdict: 'equivalent', reason: PLUMBING },
  {
    file: 'src/mock/operations/createPet.ts',
    scope: 'create',
    code: /saved|^'error'$/,
    verdict: 'equivalent',
    reason: `${PLUMBING} (The 500 when the state file cannot be written.)`,
  },
  {
    file: 'src/mock/operations/createPet.ts',
    code: /^'The request body'$|request body|Content-Type|contentType === undefined/,
    verdict: 'equivalent',
    reason: MESSAGE,
  },
  {
    file: 'src/mock/operations/createPet.ts',
    code: /typeof body === 'object'|body !== null/,
    verdict: 'equivalent',
    reason: 'The body is a JSON object here whenever it passed the NewPet validator, so the guard is always true.',
  },
  {
    file: 'src/mock/state/store.ts',
    scope: 'pageKey',
    verdict: 'equivalent',
    reason:
      'The cache key stays distinct for every (limit, status) pair (`limit * 4 - i` for i in 0..3, or status left out, which `indexOf` already maps to 0).',
  },
  { file: 'src/mock/state/store.ts', scope: 'contiguous', verdict: 'equivalent', reason: CACHE },
  { file: 'src/mock/state/store.ts', scope: 'MemoryPetStore.listJson', verdict: 'equivalent', reason: CACHE },
  {
    file: 'src/mock/state/store.ts',
    scope: 'MemoryPetStore.#entry',
    verdict: 'equivalent',
    reason: 'A negative or unsafe index reads past the array, which gives `undefined` (a 404) just as the guard did.',
  },
  {
    file: 'src/mock/state/store.ts',
    scope: 'MemoryPetStore.#add',
    verdict: 'equivalent',
    reason: 'Every PetStatus has its list from the start, so the optional call always finds one.',
  },
  { file: 'src/mock/state/store.ts', scope: 'MemoryPetStore.constructor', verdict: 'equivalent', reason: STARTUP },
  {
    file: 'src/mock/state/store.ts',
    code: /^\[\]$/,
    verdict: 'equivalent',
    reason: '`reset()` in the constructor replaces the initial list before any request.',
  },
  ...['size', 'get', 'list', 'created'].map(
    (method): TriageRule => ({
      file: 'src/mock/state/store.ts',
      scope: `MemoryPetStore.${method}`,
      verdict: 'equivalent',
      reason: 'A store method no operation calls (the admin endpoints, the state file and tests do): no answer of the interface reads it.',
    }),
  ),
];
