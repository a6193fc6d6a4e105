/**
 * What an operation of the mock is: how it parses a request-target, how it makes its response, and
 * the headers every one of its responses has. The pipeline (src/mock/pipeline/pipeline.ts) walks every
 * request through the same steps and calls these at theirs.
 */
import type { Profile } from '../../profile/profile.js';
import type { MockRequest, MockResponse, PreparedHeaders } from '../core/messages.js';
import type { Pending } from '../core/pending.js';
import type { CoverageKeeper } from '../state/coverage.js';
import type { Saved } from '../state/saved-changes.js';
import type { Session } from '../state/sessions.js';

/** An operation, by the id the spec gives it (`listPets`): the bundled spec's, or those of another read at start. */
export type OperationId = string;

/** An operation's own response to one request, in the request's session. */
export type Responder = (request: MockRequest, session: Session) => Pending<MockResponse>;

/**
 * What parsing a request gives an operation: its checked inputs bound into a responder; the
 * rejection of them (a 400, 413, 415), under `rejection`; or, for an operation with a body, the parsing
 * of that body, still to come, under `parseBody`, which gives the text it read as `body` (for the journal:
 * the request log and the journal show what the operation read, and the body cannot be read twice).
 */
export type ParsedInputs =
  | { readonly rejection: MockResponse; readonly body?: string | undefined }
  | { readonly respond: Responder; readonly body?: string | undefined }
  | { readonly parseBody: (request: MockRequest) => Pending<ParsedInputs> };

/**
 * One operation of the mock.
 * @example
 * const parsed = listPets(env).parse({}, 'limit=0'); // { rejection: 400 'The query: limit must be >= 1.' }
 */
export interface MockOperation {
  readonly id: OperationId;
  /**
   * Parses the operation's path parameters and query and checks them against the spec. The router
   * runs it once per distinct request-target and keeps the result, so it decides from the text alone.
   */
  parse(params: Readonly<Record<string, string>>, query: string): ParsedInputs;
  /**
   * When the operation is removed (its `x-sunset`, epoch milliseconds) and its one response from then
   * on (a 410). The pipeline reads the request's session clock for it before the inputs, so a removed
   * operation neither parses its inputs nor gives the response a request forces.
   */
  readonly removal?: { readonly at: number; readonly response: MockResponse };
  /**
   * The headers every response of the operation has, whatever made it (the operation, a forced
   * `code=`, a rejection, the 401), by status and by whether the operation is removed for the request's session.
   */
  responseHeaders?(status: number, removed: boolean): PreparedHeaders | undefined;
}

/** What the operations need from the mock around them. */
export interface OperationEnv {
  /** The path every operation is served under: `/v1`. */
  readonly basePath: string;
  readonly coverage: CoverageKeeper;
  /** The choices of the deployment the mock mimics, where the interface leaves room; resolved once, at start. */
  readonly profile: Profile;
  /**
   * Makes a change of `session`'s pets. A change of the default session is saved where the mock keeps
   * its state (`--state`), one change at a time, and undone when the save fails (then the Error response
   * says so). A store that keeps its own state (Redis) has nothing to save: the change is simply made.
   */
  change<T>(session: Session, change: () => Pending<T>): Pending<Saved<T>>;
}
