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
const PROFILE =
  'Reached only under a profile (`--profile`) that knows a choice; the trials run the mock without one, where every choice is `unknown` and this code is not reached or decides nothing.';
const CHOICE =
  'The default mock then makes another choice the interface leaves open (listPets documents only 200 and 401, so an out-of-range or unparsable `limit` may be clamped or ignored, an unknown `status` may give an empty page; a non-integer petId may be a 404; `Deprecation` may be the legacy `true`): a correct deployment may make either, as the profiles of real deployments show, so no verifier of the interface may fail it.';
const PROFILE_CHOICE = `Under the default profile (every choice \`unknown\`) this either decides nothing, or, where the mutant forces a choice, makes the mock take another choice the interface leaves open. ${CHOICE}`;
const DATA =
  "Reached only with your own data (`--data`), pets put through `POST /__mock/pets`, a profile's random ids (`idScheme: random`) or list order (`listOrder`); the trials use none (the default and the `--big-ids` mock number pets densely in id order), so no trial reaches it.";
const JOURNAL =
  'Mock-only feature: the request journal (`GET /__mock/requests`, `mock.requests()`) and the rule it names for each answer; nothing in an answer to the API changes.';
const FAULT =
  'Mock-only feature: network faults (`Prefer: fault=`, `--faults`) break or slow the connection on request; the trials ask for none and run without `--faults`.';
const CRASH =
  "A request to a path or a method the spec does not document (`GET /v1/nope`, `DELETE /v1/pets`, a path variant such as `/v1/pets/`) gets a 500 instead of a 4xx. The interface does not define those answers, but a server error is never a correct one, and any client can cause it. The verifier's auth.*.path-variants sends such requests but only warns on a 5xx. Check to add (like Schemathesis's not_a_server_error): with the valid key, an undocumented path and an undocumented method under the base path answer 4xx with an Error body.";
const SUNSET_ONLY = "Reached only after getPet's sunset (5 December 2030): the mock's clock is the real one, so before then no deployment can show it.";

export const TRIAGE: readonly TriageRule[] = [
  // --- missed: contract-visible changes the verifier does not catch today -------------------------
  {
    file: 'src/mock/operations/getPet.ts',
    scope: 'responseHeaders',
    code: /^isRemoved \|\| status === 410$|^status === 410$/,
    replacement: /^false$|^isRemoved && status === 410$/,
    verdict: 'equivalent',
    reason: `A 410 then carries the deprecation notice instead of the Sunset alone; the mock answers 410 only past the sunset or when \`Prefer: code=410\` forces it. ${SUNSET_ONLY}`,
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
    scope: 'responseHeaders',
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
    code: /^'unsupported_media_type'$|^'payload_too_large'$/,
    verdict: 'missed',
    reason:
      "The 415 or 413 carries an empty `code`, outside the spec's `x-error-codes`. Caught by the 415 and 413 checks proposed above, which would also check the Error body.",
  },
  {
    file: 'src/mock/operations/createPet.ts',
    scope: 'parseBody',
    code: /^'rejection' in read$|^'rejection'$/,
    verdict: 'missed',
    reason:
      'A body that is not UTF-8 gets a 413 (payload too large) instead of the 400 the interface gives for a body with invalid values. Check to add (bodies): POST a NewPet whose bytes are not UTF-8 (a lone 0xFF in `name`) and expect 400 with an Error body.',
  },
  {
    file: 'src/mock/operations/createPet.ts',
    scope: 'parseNewPet',
    code: /^'bad_request'$/,
    verdict: 'equivalent',
    reason: `${PROFILE} (The \`code\` of the 400 for a category a profile does not know.)`,
  },
  {
    file: 'src/mock/operations/createPet.ts',
    scope: 'parseBody',
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

  // A 5xx for a request outside the documented operations.
  ...[
    { file: 'src/mock/pipeline/pipeline.ts', scope: 'respondTo', code: /^context\.reached\?\.operation$/, replacement: /^context\.reached\.operation$/ },
    { file: 'src/mock/pipeline/pipeline.ts', scope: 'authenticate', code: /^!route$|^!reached$/, replacement: /^false$/ },
    { file: 'src/mock/pipeline/pipeline.ts', scope: 'authenticate', code: /is not allowed on/, replacement: /^\{\}$/ },
    { file: 'src/mock/pipeline/router.ts', code: /^match === undefined$/ },
    { file: 'src/mock/pipeline/router.ts', scope: 'target', code: /^\{ path, query, area: /, replacement: /^\{\}$/ },
  ].map((where): TriageRule => ({ ...where, verdict: 'missed', reason: CRASH })),

  // --- equivalent: no answer a deployment gives the verifier changes -------------------------------
  {
    file: 'src/mock/pipeline/prefer.ts',
    verdict: 'equivalent',
    reason: `${PREFER} (The whole module parses \`Prefer\` and its \`__\` query twins, and makes the answers and the broken connections they ask for.)`,
  },
  { file: 'src/mock/state/sessions.ts', verdict: 'equivalent', reason: `${SESSIONS} (The whole module keeps the named sessions, their names and clocks.)` },
  // pipeline.ts, step by step
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'respondTo', code: /^target\.area === 'admin'$|^'admin'$/, verdict: 'equivalent', reason: PLUMBING },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'respondTo',
    code: /^target\.area === 'elsewhere'$|^'elsewhere'$|OPTIONS|HEAD|^'GET'$/,
    verdict: 'equivalent',
    reason: `${OUTSIDE} (Paths outside the base path then get the API's 401 or 404; OPTIONS and HEAD a 405.)`,
  },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'respondTo', code: /the API lives under/, verdict: 'equivalent', reason: MESSAGE },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    code: /^'(route|auth|validation|prefer|fault|session|session-cap|removed|operation|self-check|error|store)'$/,
    verdict: 'equivalent',
    reason: `${JOURNAL} (The name of the rule that decided the answer.)`,
  },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'respondTo',
    code: /removal|SESSION_HEADER/,
    verdict: 'equivalent',
    reason: `Whether, and by which session's clock, the mock asks if getPet is past its sunset. ${SUNSET_ONLY}`,
  },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'removalKnown', verdict: 'equivalent', reason: SUNSET_ONLY },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'respondIfRemoved', verdict: 'equivalent', reason: SUNSET_ONLY },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'authenticate',
    code: /is not allowed on|^\{ allow \}$|^'method_not_allowed'$|^''$/,
    verdict: 'equivalent',
    reason: `${OUTSIDE} (The text, \`code\` and \`Allow\` of the 404 or 405 for an undocumented path or method: still a 4xx with an Error body.)`,
  },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'respondToAdmin', verdict: 'equivalent', reason: PLUMBING },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'adminFailure', verdict: 'equivalent', reason: PLUMBING },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'checkSessionName', verdict: 'equivalent', reason: SESSIONS },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'operationSteps',
    code: /checkSessionName\(context\) \?\? checkPreferences/,
    verdict: 'equivalent',
    reason: `With a valid session name the preferences are then not read; with an invalid one the 400 is still given. ${PREFER}`,
  },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'checkPreferences', verdict: 'equivalent', reason: PREFER },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'wait',
    verdict: 'equivalent',
    reason: `${PREFER} (The delay of \`Prefer: delay=\` and of \`--delay\`, which the trials do not set; a 0 ms timer changes only when the same answer is sent.)`,
  },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'afterDelay',
    verdict: 'equivalent',
    reason: `The 400 of the inputs is then given one step later, by \`parseBody\`, which refuses the same \`rejection\`; only a forced answer (\`Prefer: code=\`) would now win over it. ${PREFER}`,
  },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'rejectInputs',
    verdict: 'equivalent',
    reason: `The 400 of the inputs is then given one step later, by \`parseBody\`, which refuses the same \`rejection\`; only a forced answer (\`Prefer: code=\`) would now win over it. ${PREFER}`,
  },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'respondIfForced', code: /fault|drawFault/, verdict: 'equivalent', reason: FAULT },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'respondIfForced',
    verdict: 'equivalent',
    reason: `${PREFER} (With no preference, \`forced\` is undefined: forcing the branch returns that undefined, and the steps after it run as before.)`,
  },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'parseBody', code: /sessionName \?\? DEFAULT_SESSION/, verdict: 'equivalent', reason: SESSIONS },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'withPreferenceApplied', verdict: 'equivalent', reason: PREFER },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'withLogDetail', verdict: 'equivalent', reason: PLUMBING },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'finish',
    code: /^pipeline\.form$/,
    verdict: 'equivalent',
    reason: `${PROFILE} (A profile's form of Error codes and charset.)`,
  },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'finish',
    code: /selfCheck|checked|self-check|^reached\?\.operation$/,
    verdict: 'equivalent',
    reason: PLUMBING,
  },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'finish',
    code: /breaksBeforeResponse|^fault !== undefined$|^reached && /,
    verdict: 'equivalent',
    reason: `${FAULT} (Whether coverage counts the answer.) ${PLUMBING}`,
  },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'finish',
    code: /context\.rule|pipeline\.journal|^rule !== undefined$|^'fault'$/,
    verdict: 'equivalent',
    reason: JOURNAL,
  },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'finish',
    code: /trickle|^fault === undefined$|^\{ \.\.\.response, fault/,
    verdict: 'equivalent',
    reason: FAULT,
  },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'journal', verdict: 'equivalent', reason: JOURNAL },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'failed',
    verdict: 'equivalent',
    reason: `${JOURNAL} (Reached only when a step throws, which none does for a request of the interface.)`,
  },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'createPipeline',
    code: /made = failed\(context, error\)|finish\(context, failed\(context, error\)\)/,
    verdict: 'equivalent',
    reason: "Reached only when a step throws or an operation's promise rejects; neither happens with the in-memory store for a request of the interface.",
  },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'createPipeline',
    code: /^pipeline\.journal$/,
    verdict: 'equivalent',
    reason: `${JOURNAL} (When the journal starts timing a request.)`,
  },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'createPipeline',
    code: /^!\(made instanceof Promise\)$/,
    replacement: /^true$/,
    verdict: 'equivalent',
    reason:
      "`finish` then runs on the promise, not on the response it brings. With the in-memory store only createPet answers in a promise (it reads a body), and createPet has no headers of its own, so the host sends the same answer; what is skipped is coverage, the journal, the self-check (mock-only) and a profile's form (no profile in the trials).",
  },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'context',
    code: /^false$/,
    verdict: 'equivalent',
    reason:
      "The context's first `removed` or `forced`: only getPet has a removal, and step 1 sets `removed` from the clock for it (other operations never read it); `forced` is read only with preferences. The answers are the same.",
  },
  {
    file: 'src/mock/pipeline/pipeline.ts',
    scope: 'whenReady',
    verdict: 'equivalent',
    reason:
      'The way on once a value comes in a promise: the in-memory sessions, clock and store answer at once, so with them no request takes it (a store in Redis does; the trials use none).',
  },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'preflight', verdict: 'equivalent', reason: OUTSIDE },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'PREFLIGHT_HEADERS', verdict: 'equivalent', reason: OUTSIDE },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'withHeaders', verdict: 'equivalent', reason: CACHE },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'operationsList', verdict: 'equivalent', reason: MESSAGE },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'notServed', verdict: 'equivalent', reason: `${OUTSIDE} (The 404 for a path no operation serves.)` },
  { file: 'src/mock/pipeline/pipeline.ts', scope: 'failure', verdict: 'equivalent', reason: MESSAGE },
  { file: 'src/mock/pipeline/router.ts', code: /operation === undefined|which the mock does not implement/, verdict: 'equivalent', reason: STARTUP },
  { file: 'src/mock/pipeline/router.ts', scope: 'target', code: /^'admin'$/, verdict: 'equivalent', reason: PLUMBING },
  {
    file: 'src/mock/pipeline/router.ts',
    scope: 'target',
    code: /^\[\]$/,
    verdict: 'equivalent',
    reason: 'Every route has its operations (a documented operation without one fails at start), so the fallback is never read.',
  },
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
  {
    file: 'src/mock/pipeline/router.ts',
    scope: 'isApiPath',
    verdict: 'equivalent',
    reason: `${OUTSIDE} (Which paths count as under the base path: the others then get the API's 401 or 404.)`,
  },
  {
    file: 'src/mock/pipeline/router.ts',
    code: /^`\$\{basePath\}\/`$/,
    verdict: 'equivalent',
    reason: `${OUTSIDE} (Which paths count as under the base path: the others then get the API's 401 or 404.)`,
  },
  {
    file: 'src/mock/pipeline/router.ts',
    scope: 'target',
    code: /^!isApiPath\(path\)$|^'elsewhere'$|^'api'$/,
    verdict: 'equivalent',
    reason: `${OUTSIDE} (A path outside the base path then gets the API's 401 or 404; an area named otherwise is neither \`admin\` nor \`elsewhere\`, which is what the pipeline asks.)`,
  },
  { file: 'src/mock/create-mock-api.ts', scope: 'inKnownCategories', verdict: 'equivalent', reason: `${PROFILE} (A profile's known categories.)` },
  { file: 'src/mock/create-mock-api.ts', scope: 'storeChoices', verdict: 'equivalent', reason: `${STARTUP} (The profile choices a Redis store cannot adopt.)` },
  {
    file: 'src/mock/create-mock-api.ts',
    scope: 'stateOf',
    verdict: 'equivalent',
    reason: 'Chooses a Redis store when `--store` gives one; the trials keep their state in memory.',
  },
  { file: 'src/mock/create-mock-api.ts', scope: 'journalOf', verdict: 'equivalent', reason: JOURNAL },
  { file: 'src/mock/create-mock-api.ts', scope: 'journalOn', verdict: 'equivalent', reason: JOURNAL },
  { file: 'src/mock/create-mock-api.ts', scope: 'keyLabelsByIndex', verdict: 'equivalent', reason: PLUMBING },
  {
    file: 'src/mock/create-mock-api.ts',
    scope: 'createMockApi',
    verdict: 'equivalent',
    reason: 'The entry point of the library and MSW hosts; the Node server the trials start calls `mockApiOf` directly.',
  },
  {
    file: 'src/mock/create-mock-api.ts',
    scope: 'inMemory',
    code: /randomIds|idScheme|'random'|randomIdOf|^index \+ 1$/,
    verdict: 'equivalent',
    reason: `${CHOICE.replace('(listPets', '(ids drawn at random, as `idScheme: random` makes them, are ids as good as counted ones; listPets')} ${DATA}`,
  },
  {
    file: 'src/mock/create-mock-api.ts',
    scope: 'inMemory',
    code: /data|givenIds|order === undefined|newStore|new MemoryPetStore|idOffset|^\{ order \}$|^\[\]$/,
    verdict: 'equivalent',
    reason:
      "Which store the seed goes into: a store keyed by id (`givenIds`) or made by `newStore` holds the same dense ids in id order, so it answers the same; or a start with no seeded pets, which the interface allows (it fixes no initial data, and the verifier reads only pets it created). Otherwise reached only with `--data` or a profile's order or ids.",
  },
  {
    file: 'src/mock/create-mock-api.ts',
    scope: 'mockApiOf',
    code: /saveDefault|DEFAULT_SESSION|selfCheck|journal|sessions\.resetAll|coverage\.report|requests|clearRequests|journalOn|page\.entries/,
    verdict: 'equivalent',
    reason: `${PLUMBING} (Saving the default session's changes to a state file, the self-check, the journal, and the library's reset, requests and coverage methods.)`,
  },
  { file: 'src/mock/pipeline/auth.ts', scope: 'AUTH_MESSAGES', verdict: 'equivalent', reason: MESSAGE },
  {
    file: 'src/mock/pipeline/auth.ts',
    scope: 'rejection',
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
  {
    file: 'src/mock/pipeline/auth.ts',
    scope: 'labelledBy',
    verdict: 'equivalent',
    reason: `${STARTUP} (It splits \`--api-key label:key\` on the command line.)`,
  },
  {
    file: 'src/mock/pipeline/auth.ts',
    code: /^\/\^\[A-Za-z0-9\+\/_-\]/,
    verdict: 'equivalent',
    reason: `${STARTUP} (Which \`--api-key\` values are a padded base64 key rather than \`label=key\`.)`,
  },
  { file: 'src/mock/pipeline/auth.ts', code: /^\/\^\[A-Za-z\]/, verdict: 'equivalent', reason: `${STARTUP} (The pattern of a key's label.)` },
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
  {
    file: 'src/mock/operations/parameters.ts',
    scope: 'parseParameters',
    code: /range/i,
    verdict: 'equivalent',
    reason: `${MESSAGE} (The documented range, kept to describe an integer out of it.)`,
  },
  { file: 'src/mock/operations/parameters.ts', scope: 'spellingHint', verdict: 'equivalent', reason: MESSAGE },
  { file: 'src/mock/operations/parameters.ts', scope: 'rangeOf', verdict: 'equivalent', reason: MESSAGE },
  {
    file: 'src/mock/operations/parameters.ts',
    code: /RANGE_KEYWORDS|'type', 'format'|^'(type|format|minimum|maximum)'$|integerRanges/,
    verdict: 'equivalent',
    reason: MESSAGE,
  },
  {
    file: 'src/mock/operations/parameters.ts',
    scope: 'parseParameters',
    code: /^raw === undefined$/,
    verdict: 'equivalent',
    reason: 'An absent parameter is kept as `undefined` instead of left out; the validator fills in the default for both alike.',
  },
  // createPet and getPet under a profile
  {
    file: 'src/mock/operations/createPet.ts',
    scope: 'context',
    code: /categories|'object'/,
    verdict: 'equivalent',
    reason: `${PROFILE} (A profile's known categories.)`,
  },
  {
    file: 'src/mock/operations/createPet.ts',
    scope: 'parseNewPet',
    code: /knownCategories|statusSent|sent\.status|defaultStatus|'omitted'|^', '$/,
    verdict: 'equivalent',
    reason: `${PROFILE} (A profile's known categories, and its default status for a pet sent without one: without a profile the spec's default fills it, whether the client sent one or not.)`,
  },
  {
    file: 'src/mock/operations/getPet.ts',
    scope: 'deprecationHeaders',
    code: /^form === 'legacy'$/,
    replacement: /^true$|!==/,
    verdict: 'equivalent',
    reason: CHOICE,
  },
  {
    file: 'src/mock/operations/getPet.ts',
    scope: 'deprecationHeaders',
    code: /legacy|^'true'$|^'rfc9745'$/,
    verdict: 'equivalent',
    reason: `${PROFILE} (The legacy \`Deprecation: true\`; \`rfc9745\` is the default of a parameter getPet always passes.)`,
  },
  { file: 'src/mock/operations/getPet.ts', scope: 'getPet', code: /nonIntegerPetId === 404/, replacement: /^true$|!==/, verdict: 'equivalent', reason: CHOICE },
  {
    file: 'src/mock/operations/getPet.ts',
    scope: 'getPet',
    code: /nonIntegerPetId|^'not_found'$|No pet has that id|notAnInteger|typeof values\.petId|^'string'$/,
    verdict: 'equivalent',
    reason: `${PROFILE} (The 404 a profile gives a petId that is not an integer.)`,
  },
  // listPets under a profile
  { file: 'src/mock/operations/listPets.ts', scope: 'relaxedLimit', code: /&& relaxed\.clamp/, replacement: /\|\|/, verdict: 'equivalent', reason: CHOICE },
  {
    file: 'src/mock/operations/listPets.ts',
    scope: 'relaxedLimit',
    verdict: 'equivalent',
    reason: `${PROFILE} (How a profile clamps or ignores \`limit\`: with every choice \`unknown\` the value passes as sent.)`,
  },
  { file: 'src/mock/operations/listPets.ts', scope: 'limitRelaxed', verdict: 'equivalent', reason: PROFILE_CHOICE },
  { file: 'src/mock/operations/listPets.ts', scope: 'knownStatus', verdict: 'equivalent', reason: `${PROFILE} (The empty page for an unknown \`status\`.)` },
  {
    file: 'src/mock/operations/listPets.ts',
    scope: 'listPets',
    code: /unknownStatus|emptyForUnknownStatus|^'empty'$|knownStatus\(search\.get|^'status'$/,
    verdict: 'equivalent',
    reason: PROFILE_CHOICE,
  },
  {
    file: 'src/mock/operations/listPets.ts',
    scope: 'input',
    code: /^raw === null$|^name === '(limit|status)'|^'(limit|status)'$/,
    verdict: 'equivalent',
    reason: `${PROFILE} (Which query values go through a profile's relaxing: with every choice \`unknown\` each passes as sent.)`,
  },
  {
    file: 'src/mock/operations/listPets.ts',
    code: /QUERY\.find|parameter\.name === 'limit'|^'limit'$/,
    verdict: 'equivalent',
    reason: `${PROFILE} (\`limit\`'s documented bounds, which only a profile's clamping reads.)`,
  },
  { file: 'src/mock/operations/listPets.ts', scope: 'EMPTY', verdict: 'equivalent', reason: `${PROFILE} (The empty page for an unknown \`status\`.)` },
  { file: 'src/mock/operations/listPets.ts', scope: 'EMPTY_PAGE', verdict: 'equivalent', reason: `${PROFILE} (The empty page for an unknown \`status\`.)` },
  // the store: what only --data, POST /__mock/pets, random ids and list orders reach
  ...['idsAfter', 'keyOf', 'MemoryPetStore.put', 'MemoryPetStore.#addById', 'MemoryPetStore.#keyById', 'MemoryPetStore.#nextId'].map(
    (scope): TriageRule => ({ file: 'src/mock/state/store.ts', scope, verdict: 'equivalent', reason: DATA }),
  ),
  {
    file: 'src/mock/state/store.ts',
    scope: 'COMPARE',
    verdict: 'equivalent',
    reason: `${DATA} (The comparisons of a profile's list orders, and of pets sorted by id once they are kept by id.)`,
  },
  { file: 'src/mock/state/store.ts', scope: 'MemoryPetStore.#idOf', code: /randomIds/, verdict: 'equivalent', reason: DATA },
  {
    file: 'src/mock/state/store.ts',
    scope: 'MemoryPetStore.reset',
    code: /givenIds|COMPARE|'id-asc'|\[\.\.\.this\.#seed\]/,
    verdict: 'equivalent',
    reason: `${DATA} Forced on, the seed is kept by id: the default mock's ids are dense and in order, so the same pets are found, listed and numbered.`,
  },
  {
    file: 'src/mock/state/store.ts',
    scope: 'MemoryPetStore.create',
    code: /#byId === undefined|^draft\.status === undefined$|^\{ id, name: draft\.name, categoryId: draft\.categoryId \}$/,
    verdict: 'equivalent',
    reason: `${DATA} Forced either way in a default mock, the new pet gets the same next id and is appended in id order just the same; and \`draft.status\` is always set there (the spec's default fills it).`,
  },
  {
    file: 'src/mock/state/store.ts',
    scope: 'MemoryPetStore.#page',
    code: /randomIds|#byId|inIdOrder|#order === 'id-(asc|desc)'|^'id-(asc|desc)'$|Math\.max|reverse|from\.length|status \?\? 'all'|^'all'$|sorted|\[\.\.\.from\]/,
    verdict: 'equivalent',
    reason: `${DATA} Forced in a default mock, the page is sorted by id instead of sliced in id order: the same pets in the same order (the sorted copy is dropped on every change).`,
  },
  { file: 'src/mock/operations/getPet.ts', code: /was removed on|answer|SUNSET_MS/, verdict: 'equivalent', reason: SUNSET_ONLY },
  { file: 'src/mock/operations/getPet.ts', code: /No pet has id|The path/, verdict: 'equivalent', reason: MESSAGE },
  { file: 'src/mock/operations/listPets.ts', code: /The query/, verdict: 'equivalent', reason: MESSAGE },
  { file: 'src/mock/operations/inputs.ts', scope: 'rejection', code: /describeErrors|errors \?\? \[\]|^\[\]$/, verdict: 'equivalent', reason: MESSAGE },
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
