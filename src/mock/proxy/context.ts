/**
 * What every step of the proxy shares, made once at start (`ProxyContext`), and what it knows of one
 * forwarded request (`Exchange`). Each step is a function of these two, so it reads on its own.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { wholeNumberIn } from '../../bounds/option-value.js';
import { openapi } from '../../generated/openapi.js';
import { apiKeyProblem } from '../../http/header-value.js';
import { definedFields } from '../../json/defined-fields.js';
import type { JsonValue } from '../../json/lossless.js';
import { type Conformance, createConformance } from '../../openapi/conformance.js';
import type { OperationKind } from '../../openapi/resource-model.js';
import type { ProfileDocument } from '../../profile/profile.js';
import type { KeyRedactor } from '../../redact/key-redactor.js';
import { MOCK_DEFAULTS } from '../core/defaults.js';
import { type FaultKind, type FaultRates, faultDraw } from '../core/faults.js';
import { checkServerPlace, guardedCallback, optionsObject, text, trueOrFalse } from '../core/option-checks.js';
import { journalOf, type MockApi } from '../create-mock-api.js';
import type { OperationId } from '../operations/operation.js';
import { normalizeMockOptions } from '../options.js';
import { type AuthProblem, bearerCheck, type LabelledApiKey } from '../pipeline/auth.js';
import { hostCheck, hostName } from '../pipeline/host-guard.js';
import { checkTimeouts, type ServerTimeouts } from '../pipeline/http-server.js';
import type { PipelineJournal } from '../pipeline/journal-step.js';
import { targetRedactor } from '../pipeline/request-log.js';
import type { Router } from '../pipeline/router.js';
import { RESPONSE_SCHEMAS } from '../pipeline/self-check.js';
import { DriftLog } from './drift-report.js';
import { requestRedactor } from './hide-credentials.js';
import { createForcer } from './proxy-prefer.js';
import { Recorder } from './record.js';
import { createShadow, type Shadow } from './shadow.js';
import { parseUpstream } from './upstream-url.js';
import { createInputChecks } from './violations.js';

/**
 * Options of `startProxyServer`.
 * @example
 * const options: ProxyOptions = { upstream: 'https://staging.example.com/v1', upstreamKey: process.env.STAGING_KEY, port: 0 };
 */
export interface ProxyOptions {
  /** The deployment's base URL, with its version prefix: `https://staging.example.com/v1`. */
  readonly upstream: string;
  /**
   * The key sent to the deployment; without it, the client's own Authorization is forwarded. Never
   * printed. With it, a client must hold one of `apiKeys`, as for the mock: the proxy responds 401 itself.
   */
  readonly upstreamKey?: string;
  /** The mock's own keys: what clients send when `upstreamKey` is given, and to `/__mock/*` beyond loopback. Default: `petstore-dev-key`. */
  readonly apiKeys?: readonly (string | LabelledApiKey)[];
  /** Host names, besides `localhost`, IP addresses and `host`, that `Host` may name; any other is rejected with 403, as by the mock. */
  readonly allowedHosts?: readonly string[];
  /** With a `host` beyond loopback, take the public default key among `apiKeys` (or alone) instead of throwing, as `--allow-default-key`. Default false. */
  readonly allowDefaultKey?: boolean;
  /** The choices the mock compares with (`petstore-verify --write-profile`). Default: the mock's own. */
  readonly profile?: ProfileDocument;
  readonly port?: number;
  /** Default `127.0.0.1`. */
  readonly host?: string;
  /** Milliseconds to wait for the deployment. Default 10 000. */
  readonly timeoutMs?: number;
  /** Write the deployment's pets to this file (a list `--data` reads) and the profile it showed beside it (`.profile.json`). Default: none. */
  readonly record?: string;
  /** Whether the proxy answers `Prefer: code=` (and `auth=expired`, `delay=`) itself, as the mock does (docs/mock-prefer.md). Default true. */
  readonly prefer?: boolean;
  /** How long a slow client may hold a connection; defaults as the mock's (docs/guarantees.md). */
  readonly timeouts?: ServerTimeouts;
  /** The share of API requests that get each network fault, drawn per request as by the mock (docs/mock-faults.md). Default: none. */
  readonly faults?: FaultRates;
  /** Seed of the draws of `faults`, as the mock's `faultSeed`. Default: the mock's seed. */
  readonly faultSeed?: number;
  /** Requests the journal keeps per session (`GET /__mock/requests`): what the proxy forwarded and what it answered itself; 0 turns it off. Default: 500, as the mock's. */
  readonly journalSize?: number;
  /** Characters of a request body a journal entry shows. Default: 4096, as the mock's. */
  readonly journalBodyLimit?: number;
  /** Called with one line per violation and per drift, as they happen. */
  readonly onProblem?: (line: string) => void;
  /** Called with one line per request: method, target, status, ms, counts. */
  readonly onRequest?: (line: string) => void;
}

/** What the proxy's steps share for as long as it runs. */
export interface ProxyContext {
  /** The deployment's base URL, parsed and checked. */
  readonly upstream: URL;
  /** The key sent to the deployment, if given; every text the proxy logs or relays is redacted of it. */
  readonly upstreamKey: string | undefined;
  /**
   * The redactor of what the proxy logs, keeps, records and relays for a request with this
   * `Authorization`: the mock's keys, the upstream key and the request's own credential, in any form.
   */
  readonly hide: (authorization: string | undefined) => KeyRedactor;
  /** The interface the proxy binds. */
  readonly host: string;
  /** Whether a `Host` header names this proxy, by the mock's own check. */
  readonly hostAllowed: (host: string) => boolean;
  /** The names, besides loopback ones, whose pages may use the upstream key: the bound one and `allowedHosts`, lower-case. */
  readonly pageHosts: ReadonlySet<string>;
  /** The mock's bearer check over its keys: the index of the key a header holds, or why it holds none. */
  readonly authorize: (authorization: string | undefined) => AuthProblem | number;
  /** Whether `/__mock/*` needs one of the keys too: when the proxy is reachable beyond this machine, as the mock. */
  readonly adminKeyRequired: boolean;
  readonly timeoutMs: number;
  /** The API's base path here, `/v1`: what the proxy forwards, replaced by the upstream's base URL. */
  readonly basePath: string;
  /** The spec's own input checks, without state: what makes a request invalid whatever the profile. */
  readonly inputChecks: Router;
  /** The deployment's responses held to spec/openapi.yaml. */
  readonly conformance: Conformance<OperationId>;
  readonly shadow: Shadow;
  /** Picks a network fault for a request that asks for none (`faults`), as the mock's pipeline does; `undefined` when no fault has a rate. */
  readonly drawFault: (() => FaultKind | undefined) | undefined;
  /** The mock that answers a request forcing its response (`Prefer: code=`); `undefined` with `prefer: false`. */
  readonly forcer: MockApi | undefined;
  readonly log: DriftLog;
  /** What the deployment showed, written for a later mock (`record`). */
  readonly recorder: Recorder | undefined;
  /** The request-target as the request log shows it: without the mock's keys or the upstream key, as the mock's log. */
  readonly logTarget: (target: string) => string;
  /** The request journal (proxy-journal.ts), its entries without the mock's keys or the upstream key; `undefined` when it is off. */
  readonly journal: PipelineJournal | undefined;
  /** The label of the mock's key an Authorization holds, when the proxy checks keys (`upstreamKey`) and that key has one. */
  readonly keyLabelOf: (authorization: string | undefined) => string | undefined;
}

/** A client's request to the proxy, its body read. */
export interface Incoming {
  readonly method: string;
  /** The request-target, `/v1/pets?limit=5`. */
  readonly target: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** One API request forwarded, and the deployment's response to it. */
export interface Exchange extends Incoming {
  /** `METHOD target`: the request line without its version, as the log and the report name the request. */
  readonly requestLine: string;
  readonly operationId: OperationId | undefined;
  /** What that operation does to the resource, by the model: a list, a read and a create show records. */
  readonly kind: OperationKind | undefined;
  readonly upstream: Response;
  /** The deployment's response body, read within `MAX_RESPONSE_BYTES`. */
  readonly upstreamText: string;
  readonly upstreamJson: JsonValue | undefined;
  /** A header of the deployment's response by lower-case name. */
  upstreamHeader(name: string): string | undefined;
  /** Text redacted of every key the proxy hides and of the client's credential (`ProxyContext.hide`): what may be kept. */
  redact(text: string): string;
  /** A body redacted as `redact` does, a JSON one in its string literals only, so that it stays the JSON it was. */
  redactBody(body: string): string;
  /** `redact`, on one line: what may be logged. */
  clean(text: string): string;
}

/** The label of the key an Authorization holds, by `authorize` over `apiKeys`; none without `authorize` (the keys are not checked) or labels. */
function keyLabels(
  authorize: ProxyContext['authorize'] | undefined,
  apiKeys: readonly string[],
  labels: ReadonlyMap<string, string>,
): ProxyContext['keyLabelOf'] {
  if (authorize === undefined || labels.size === 0) return () => undefined;
  return (authorization) => {
    const index = authorize(authorization);
    return typeof index === 'number' ? labels.get(apiKeys[index] ?? '') : undefined;
  };
}

/** The proxy's own options, checked where they enter, its callbacks kept from throwing; those it shares with the mock are `normalizeMockOptions`'. */
export function checkedProxyOptions(given: ProxyOptions): ProxyOptions {
  const options = optionsObject('startProxyServer', given);
  checkServerPlace('startProxyServer', options);
  checkTimeouts(options.timeouts);
  text('upstreamKey', options.upstreamKey, 'process.env.STAGING_KEY');
  wholeNumberIn('timeoutMs', options.timeoutMs, [1, 600_000], 0);
  if (text('record', options.record, "'./recorded-pets.json'") === '')
    throw new TypeError('record must name a file, such as ./recorded-pets.json; got an empty string');
  trueOrFalse('prefer', options.prefer, true);
  const onProblem = guardedCallback('onProblem', options.onProblem, '(line) => console.warn(line)');
  const onRequest = guardedCallback('onRequest', options.onRequest, '(line) => console.log(line)');
  return { ...options, ...definedFields({ onProblem, onRequest }) };
}

/** The context of a proxy with these options (as `checkedProxyOptions` gives them); throws a TypeError for an upstream that is not an http(s) base URL, or a key that cannot be one. */
export function createProxyContext(options: ProxyOptions): ProxyContext {
  const upstream = parseUpstream(options.upstream);
  const upstreamKeyProblem = options.upstreamKey === undefined ? undefined : apiKeyProblem(options.upstreamKey);
  if (upstreamKeyProblem !== undefined) throw new TypeError(`upstreamKey: ${upstreamKeyProblem}`);
  const basePath = MOCK_DEFAULTS.basePath;
  const host = options.host ?? MOCK_DEFAULTS.host;
  // The mock's own defaults for its keys and its admin: the default key, and the key at /__mock/* beyond loopback.
  const { journalSize, journalBodyLimit, faults, faultSeed } = options;
  const shared = definedFields({ apiKeys: options.apiKeys, journalSize, journalBodyLimit, faults, faultSeed });
  const settings = normalizeMockOptions(shared, { host, allowedHosts: options.allowedHosts, allowDefaultKey: options.allowDefaultKey });
  const { apiKeys, adminKeyRequired } = settings;
  const hidden = options.upstreamKey === undefined ? apiKeys : [...apiKeys, options.upstreamKey];
  // The name the proxy was bound by is one its clients use.
  const served = [...(options.allowedHosts ?? []), host];
  const authorize = bearerCheck(apiKeys);
  return {
    upstream,
    upstreamKey: options.upstreamKey,
    hide: requestRedactor(hidden),
    host,
    hostAllowed: hostCheck(served),
    pageHosts: new Set(served.map((name) => hostName(name))),
    authorize,
    adminKeyRequired,
    timeoutMs: options.timeoutMs ?? 10_000,
    basePath,
    shadow: createShadow(options.profile),
    drawFault: faultDraw(settings.faults, settings.faultSeed),
    forcer: options.prefer === false ? undefined : createForcer(options.profile),
    inputChecks: createInputChecks(basePath),
    conformance: createConformance<OperationId>(openapi, RESPONSE_SCHEMAS),
    recorder: options.record === undefined ? undefined : new Recorder(options.record, options.profile, options.onProblem),
    log: new DriftLog(upstream.href, options.onProblem ?? (() => {})),
    logTarget: targetRedactor(hidden, basePath),
    journal: journalOf(settings, hidden),
    keyLabelOf: keyLabels(options.upstreamKey === undefined ? undefined : authorize, apiKeys, settings.keyLabels),
  };
}
