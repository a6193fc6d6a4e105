/**
 * The proxy's request journal (docs/mock-journal.md): what it forwarded, with the deployment's status,
 * and what it answered itself (a forced `Prefer`, its 401, its 400s), served at `GET /__mock/requests`
 * as the mock serves its own. It is the mock's journal (src/mock/state/journal.ts), made by the mock's
 * own `journalOf`: a record of references and numbers per request, formatted, keys hidden, only when
 * read. Its entries hide the mock's keys and the upstream key, in every form the request log knows.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { MockResponse } from '../core/messages.js';
import type { OperationId } from '../operations/operation.js';
import { keptAuthorization, longBody } from '../pipeline/journal-step.js';
import { reachedBy } from '../pipeline/router.js';
import { type JournalRule, journalSession } from '../state/journal.js';
import { SESSION_HEADER, sessionName } from '../state/sessions.js';
import type { ProxyContext } from './context.js';

/**
 * What the journal learns of one request while the proxy responds to it: the rule of the step that
 * responded (`undefined` for what is not journalled: the admin's own requests, a foreign `Host`),
 * the operation its method and path reach, and the body the proxy forwarded or answered.
 */
export interface Noted {
  rule: JournalRule | undefined;
  operation: OperationId | undefined;
  body: string | undefined;
}

/** One request as the proxy received it, and its response as the client got it. */
export interface Answered {
  readonly method: string;
  readonly target: string;
  readonly headers: IncomingHttpHeaders;
  /** Epoch milliseconds when it arrived. */
  readonly arrived: number;
  readonly latencyMs: number;
  readonly response: MockResponse;
}

/** A header as one string: two of them joined as fetch joins them. */
function oneHeader(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The operation a request's method and path reach, by the spec's own routes; `undefined` for none. */
export function operationReached(context: ProxyContext, method: string, target: string): OperationId | undefined {
  return reachedBy(context.inputChecks.target(target), method)?.operation.id;
}

/**
 * Keeps an API request in the proxy's journal, when it keeps one, as the pipeline keeps its own:
 * references and numbers, formatted when read. What no step noted a rule for is not journalled.
 */
export function journalAnswered(context: ProxyContext, answered: Answered, noted: Noted): void {
  const { journal } = context;
  const { rule, body } = noted;
  if (journal === undefined || rule === undefined) return;
  const { headers } = answered;
  const sessionHeader = oneHeader(headers, SESSION_HEADER);
  // The journal hides the keys the proxy knows when it is read; the client's own credential, the deployment's key when
  // the proxy holds none, only this request knows: what holds it is kept without it.
  const own = context.upstreamKey === undefined && headers.authorization !== undefined ? context.hide(headers.authorization) : undefined;
  const kept = <T extends string | undefined>(text: T): T => (text === undefined || own === undefined ? text : (own.text(text) as T));
  const keptBody = body === undefined || own === undefined ? body : own.body(body, /^\s*[[{]/.test(body));
  const long = keptBody !== undefined && keptBody.length > journal.bodyLimit;
  journal.keeper.record({
    time: answered.arrived,
    // The proxy opens no session: the name only sorts its journal, as the mock's does; a request its key check refused opens none.
    session: journalSession(rule !== 'auth', sessionName(sessionHeader)),
    method: answered.method,
    target: kept(answered.target),
    contentType: kept(headers['content-type']),
    accept: kept(headers.accept),
    prefer: kept(oneHeader(headers, 'prefer')),
    sessionHeader: kept(sessionHeader),
    authorization: keptAuthorization(headers.authorization),
    body: long ? longBody(journal, keptBody) : keptBody,
    bodyTruncated: long,
    status: answered.response.status,
    operation: noted.operation,
    rule,
    latencyMs: answered.latencyMs,
    keyLabel: context.keyLabelOf(headers.authorization),
  });
}
