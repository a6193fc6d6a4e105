/**
 * The independent deployments of the pet store interface: each written from /work/shared/interface.md
 * and spec/openapi.yaml alone, on a framework the project's own tests never use, with the faults a
 * developer of that framework plausibly makes. `FAULT=<name>` in a deployment's environment selects one
 * fault; without it the deployment is correct. Each fault says which sentence of the interface (or of
 * the spec, where the spec documents what the interface leaves out) it breaks.
 */
import { join } from 'node:path';

/** How to start one deployment: the command, run in the deployment's folder. */
export type Launch = { readonly command: string; readonly args: readonly string[] };

export type Deployment = {
  readonly name: string;
  readonly stack: string;
  readonly folder: string;
  /** What must be on the machine (a Debian package), checked before any run. */
  readonly needs: { readonly command: string; readonly args: readonly string[]; readonly packages: string };
  /** Compiles the deployment once, into `out` (a file path), before its runs. */
  readonly build?: (out: string) => Launch;
  readonly launch: (port: number, fault: string | undefined, built: string) => Launch;
  readonly faults: Readonly<Record<string, string>>;
};

const PYTHON = process.env.PYTHON ?? '/usr/bin/python3';

export const DEPLOYMENTS: readonly Deployment[] = [
  {
    name: 'fastapi',
    stack: 'Python 3.11, FastAPI 0.92 (pydantic 1.10), uvicorn 0.17',
    folder: 'python',
    needs: { command: PYTHON, args: ['-c', 'import fastapi, uvicorn'], packages: 'python3-fastapi python3-uvicorn' },
    launch: () => ({ command: PYTHON, args: ['fastapi_app.py'] }),
    faults: {
      '422':
        "FastAPI's default validation handler left in place: invalid bodies and parameters answer 422 `{detail: [...]}`; the interface answers them 400 with an Error (`400 | Error | Body missing required fields or containing invalid values`; `All error responses carry the Error body`).",
      'lax-types':
        'pydantic\'s lax `int` and `str`: `"categoryId": "7"`, `7.9` (read 7) and `"name": 12` are accepted; `categoryId | integer | int64`, and invalid values are 400.',
      'null-status':
        '`"status": null` is read as absent and the pet created; `status | PetStatus` allows exactly `available`, `pending`, `sold`, so null is an invalid value (400).',
      'no-int64-bound': 'categoryId is any Python int: 2^63 and 10^30 are accepted and echoed; `categoryId | integer | int64`.',
      'httpbearer-403':
        '`HTTPBearer()` with auto_error: a missing credential or another scheme answers 403 `Not authenticated`; `When the key is missing or invalid, the service answers 401 with an Error body`.',
      'getpet-no-auth': 'getPet lacks the auth dependency and answers without a key; `All operations require authentication`.',
      'sunset-iso':
        "`Sunset: 2030-12-05T00:00:00+00:00` (ISO 8601); the spec's Sunset header is an IMF-fixdate (`components.headers.Sunset` pattern, RFC 8594).",
      'racy-id':
        'the id is the largest id + 1, read before an await: concurrent creates get the same id and the later overwrites the earlier; `id: Unique identifier, assigned by the service on creation`.',
      'exclude-defaults':
        '`response_model_exclude_defaults=True` drops `status` when it is `available`: a pet created with that status reads back without it; `status supplied in the body -> the supplied value` (States and transitions).',
      'limit-unvalidated':
        '`limit: int = 20` without bounds: `limit=-1` returns all pets but the last, `limit=1000` all of them; `limit | minimum 1, maximum 100 | Maximum number of animals returned`.',
      'extra-forbid':
        "`extra = Extra.forbid`: a body with a field NewPet does not name (or an `id`) is refused 400; the spec's createPet: `an id sent by the client is ignored, and so is any field the NewPet schema does not name`.",
    },
  },
  {
    name: 'flask',
    stack: "Python 3.11, Flask 2.2 on Werkzeug's threaded server",
    folder: 'python',
    needs: { command: PYTHON, args: ['-c', 'import flask'], packages: 'python3-flask' },
    launch: () => ({ command: PYTHON, args: ['flask_app.py'] }),
    faults: {
      'html-errors': "no JSON error handler: 400, 401, 404 and 405 are Werkzeug's HTML pages; `All error responses carry the Error body`.",
      'hash-store-strings':
        'pets kept as a key-value hash would keep them: `id` and `categoryId` come back as strings; `id | integer | int64`, `categoryId | integer | int64`.',
      'limit-off-by-one': 'the page holds `limit + 1` pets; `limit: Maximum number of animals returned`.',
      'filter-with-limit': 'the status filter is skipped when `limit` is given too; `status: Returns only animals with this status`.',
      vanish:
        'created pets live in a write-behind cache of 25 that nothing flushes: each disappears (404 on getPet, gone from lists) after 25 later creates, though no operation deletes an animal; `GET /pets/{petId}: 200 The requested animal`.',
      'text-html':
        'getPet returns `json.dumps(pet)`, which Flask sends as `text/html; charset=utf-8`; `All request and response bodies are JSON (application/json)`.',
      'created-200': "createPet answers 200 (jsonify's default); `201 | Pet | Animal added`.",
      'no-location': "createPet's 201 has no `Location`; the spec's createPet: `The response carries a Location header with the path of the new animal`.",
      'ctype-exact':
        'the Content-Type is compared as a string: `application/json; charset=utf-8` and `Application/JSON` are refused 415; `Requests with a JSON body send Content-Type: application/json` (a media type is case-insensitive and may carry parameters, RFC 9110 8.3.1).',
      'name-ascii': 'names are limited to ASCII word characters, so `Zoë` is refused 400; `name | string` has no such constraint.',
      'deprecation-True': "`Deprecation: True` (Python's `str(True)`); the spec's Deprecation header pattern is `^(@-?[0-9]{1,15}|true)$`.",
      'error-shape': 'errors are `{"error": "..."}`; `Error: code, message, status`, all required.',
      'status-keyerror':
        '`data["status"]` raises KeyError when the optional status is omitted: 500; `status | PetStatus | no` (not required), so the body is valid and answers 201.',
    },
  },
  {
    name: 'go',
    stack: 'Go 1.19, net/http and encoding/json alone',
    folder: 'go',
    needs: { command: 'go', args: ['version'], packages: 'golang-go' },
    build: (out) => ({ command: 'go', args: ['build', '-o', out, '.'] }),
    launch: (_port, _fault, built) => ({ command: built, args: [] }),
    faults: {
      'case-insensitive-keys':
        'decoded into a tagged struct: encoding/json matches keys case-insensitively (`{"NAME": ..., "CATEGORYID": ...}` is accepted) and reads a null status as absent; JSON names are case-sensitive, so `name` and `categoryId` are missing: 400.',
      'missing-categoryid-zero': "an absent categoryId is Go's zero value 0 and the pet is created; `name and categoryId are required` (400).",
      'zero-as-missing':
        '`name == ""` or `categoryId == 0` is taken for absent and refused 400; both are valid values of `name | string` and `categoryId | integer | int64`.',
      'int64-via-float64': 'decoded into `map[string]any`: numbers are float64, so categoryId 2^53 + 1 is stored as 2^53; `categoryId | integer | int64`.',
      'ms-ids':
        'the id is the Unix time in milliseconds: two creates in one millisecond share an id and the second overwrites the first; `id: Unique identifier`.',
      'text-401': '`http.Error(w, "unauthorized", 401)`: a text/plain body; `the service answers 401 with an Error body`.',
      'list-no-auth': 'listPets is not wrapped by the auth middleware; `All operations require authentication`.',
      'limit-uncapped': 'a `limit` above 100 is honoured; `limit | maximum 100`.',
      'headers-only-on-200':
        "`Deprecation`, `Sunset` and `Link` are set only once the pet is found: getPet's 400, 401 and 404 lack them; the spec documents them on those responses.",
      'link-no-brackets': '`Link: /v1/pets; rel="successor-version"`; the spec\'s Link header pattern is `^<[^<>]*>` (RFC 8288).',
      'nil-status-panic':
        'a nil `*string` is dereferenced when the optional status is omitted: the handler panics and net/http drops the connection; a valid body answers `201 | Pet | Animal added`.',
      'sniffed-ctype':
        'listPets writes its body without a Content-Type, so net/http sniffs `text/plain; charset=utf-8`; `All request and response bodies are JSON (application/json)`.',
      'error-status-const': "the Error body's `status` is always 400; `status equals the HTTP status code of the response`.",
      'accept-exact':
        'any `Accept` but exactly `application/json` is answered 406, `*/*` and `application/json, */*;q=0.8` too; `All request and response bodies are JSON` asks for no Accept, and one that admits JSON must get it (RFC 9110 12.5.1), never an undocumented 406.',
      'first-word-crash':
        'an audit goroutine logs the name\'s first word with `name[:strings.Index(name, " ")]`: a one-word name panics it, and the whole process exits; `name | string`, and the service keeps answering every later request.',
    },
  },
  {
    name: 'sinatra',
    stack: 'Ruby 3.1, Sinatra 3.0 on Puma 5.6',
    folder: 'ruby',
    needs: { command: 'ruby', args: ['-e', 'require "sinatra/base"; require "puma"'], packages: 'ruby-sinatra puma' },
    launch: (port, fault) => ({
      command: 'puma',
      args: ['-b', `tcp://127.0.0.1:${port}`, '-e', 'production', '-t', '4:4', ...(fault === 'puma-workers' ? ['-w', '2'] : []), 'config.ru'],
    }),
    faults: {
      'octal-id':
        '`Integer(params["id"])` without a base: `010` is read as pet 8 and `0x1f` as pet 31, answering another animal than the one named; `petId: integer, the identifier of the animal`.',
      'halt-404': "`halt 404` without a body and no not_found handler: getPet's 404 is empty and an unknown path gets Sinatra's HTML; `404 | Error`.",
      'integer-coerce': '`Integer(value)` coerces: `"7"` is read as 7 and `7.9` as 7; `categoryId | integer | int64`, and invalid values are 400.',
      'puma-workers':
        'Puma in cluster mode (`-w 2`) with the in-memory store: each worker keeps its own pets, so a pet created on one is 404 and missing from lists on the other; `GET /pets/{petId}: 200 The requested animal`.',
      'default-available':
        "`params.fetch('status', 'available')`: listing without a status returns only available pets; `status | no | Returns only animals with this status` (without it, every animal).",
      'html-ctype':
        "`before('/v1/pets') { content_type :json }` matches that path only: getPet answers `text/html;charset=utf-8`; `All request and response bodies are JSON (application/json)`.",
      '422': 'invalid bodies and parameters answer 422 Unprocessable Entity; `400 | Error | Body missing required fields or containing invalid values`.',
      'auth-include':
        'the key is accepted anywhere in the header (`Basic <key>`, the key alone, `Bearer x<key>`); `Authorization: Bearer <API_KEY>`, and an invalid credential is 401.',
      'location-no-prefix': "`Location: /pets/{id}`, without the `/v1` prefix; the spec's Location: `Path of the new animal, /v1/pets/{id}`.",
      'limit-no-lower-bound':
        'only `limit > 100` is checked: `limit=-1` makes Array#first raise and the service answers 500; `limit | minimum 1`, and listPets answers 200 or 401, never a fault of its own.',
      'counter-not-seeded':
        'the id counter starts at 1 though the catalogue already holds ids 1 to 30: new pets share ids with old ones, and getPet answers the old one; `id: Unique identifier`.',
      'json-csrf':
        "Sinatra's default Rack::Protection kept whole: its JsonCsrf answers a GET that carries another site's `Referer` (a browser app on another origin) with a bare text/plain 403; listPets answers `200` or `401`, and `All error responses carry the Error body`.",
      'status-downcase':
        'the status is lowercased before it is checked: `Available` and `SOLD` are accepted; `PetStatus: Allowed values, exactly: available, pending, sold`.',
    },
  },
  // The two below were written later, by a helper that had read the verifier's checks (issue 33): a weaker
  // held-out measure than the four above, said so in README.md.
  {
    name: 'aiohttp',
    stack: 'Python 3.11, aiohttp 3.8 (its own server)',
    folder: 'python',
    needs: { command: PYTHON, args: ['-c', 'import aiohttp'], packages: 'python3-aiohttp' },
    launch: () => ({ command: PYTHON, args: ['aiohttp_app.py'] }),
    faults: {
      'bool-int':
        '`isinstance(value, int)` takes `true` and `false`, a bool being an int in Python: `"categoryId": true` is accepted and echoed; `categoryId | integer | int64`, and `true` is no integer (400).',
      'any-content-type':
        "the body is read as JSON whatever its Content-Type, `text/plain` too; the spec declares createPet's body `application/json` only, and documents 415 for another (RFC 9110 8.3).",
      'route-regex-404':
        "getPet's route is `/v1/pets/{pet_id:-?[0-9]+}`, so `/v1/pets/abc` falls to aiohttp's own `text/plain` 404 `404: Not Found`, without getPet's headers; `404 | Error`, and `All error responses carry the Error body`.",
      'name-strip':
        'names are stripped of the spaces around them before they are stored: `Rex  ` comes back `Rex`; `name | string`, and a Pet has every field of NewPet as added.',
      'unlocked-id':
        'the id is the largest id + 1, read before the awaited write of the pet: concurrent creates get the same id and the later overwrites the earlier; `id: Unique identifier, assigned by the service on creation`.',
      'status-lower':
        'listPets lowercases `status` before it checks it: `Available` and `SOLD` filter as `available` and `sold`; `PetStatus: Allowed values, exactly: available, pending, sold`.',
    },
  },
  {
    name: 'mojolicious',
    stack: 'Perl 5.36, Mojolicious 9.31 (Mojolicious::Lite, its own daemon)',
    folder: 'perl',
    needs: { command: 'perl', args: ['-MMojolicious', '-e', '1'], packages: 'libmojolicious-perl' },
    launch: () => ({ command: 'perl', args: ['app.pl'] }),
    faults: {
      'truthy-name': '`unless ($name)`: `""` and `"0"` are false in Perl, so a pet so named is refused 400; `name | string`, and both are strings.',
      'looks-like-number':
        'categoryId checked with `looks_like_number`: `"7"`, `7.5` and `"1e3"` are accepted; `categoryId | integer | int64`, and invalid values are 400.',
      'key-prefix':
        'the header is matched as `^Bearer <key>` with no end: `Bearer <key>x` is accepted; `Authorization: Bearer <API_KEY>`, and an invalid credential is 401.',
      'limit-or-default':
        "`$c->param('limit') || 20`: `limit=0` is false in Perl and answers the default 20 pets; `limit | minimum 1, maximum 100 | Maximum number of animals returned` (this deployment clamps a negative limit up to the minimum).",
      'latin1-body':
        'the body is decoded with `from_json`, which takes characters: given the UTF-8 bytes, `Zoë` is stored and echoed as `ZoÃ«`; `name | string`, and the Pet has the name as added.',
      'status-defined-or':
        '`$status //= \'available\'`: `"status": null` is taken for an absent status; `status | PetStatus`, and null is no value of it (400).',
    },
  },
];

export const folderOf = (deployment: Deployment): string => join(import.meta.dirname, deployment.folder);
