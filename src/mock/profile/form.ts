/**
 * The form of the answers a profile chooses: its deployment's Error `code`s, and a `charset` on JSON.
 * Applied to each answer once it is made, so no operation needs to know; a profile that keeps the
 * mock's own form gives no step at all, and the default mock does no work here.
 */

import type { Profile } from '../../profile/profile.js';
import { JSON_CONTENT_TYPE, type MockResponse, type PreparedHeaders, prepareHeaders } from '../core/messages.js';

const WITH_CHARSET = `${JSON_CONTENT_TYPE}; charset=utf-8`;
/** Every Error body the mock makes starts with its code (`errorResponse` writes `code` first). */
const LEADING_CODE = /^\{"code":"([a-z_]+)"/;

/**
 * The step that gives answers the profile's form, or `undefined` when the profile keeps the mock's.
 * @example
 * const form = profileForm({ ...UNKNOWN_PROFILE, errorCodes: { not_found: 'E404' } });
 * form?.(errorResponse('not_found', 'No pet has id 9.')).body; // '{"code":"E404","message":"No pet has id 9.","status":404}'
 */
export function profileForm(profile: Profile): ((response: MockResponse) => MockResponse) | undefined {
  const codes = new Map(Object.entries(profile.errorCodes).filter(([situation, code]) => situation !== code));
  const charset = profile.charset === 'utf-8';
  if (codes.size === 0 && !charset) return undefined;
  // Prepared headers (made once for many answers) get their twin with a charset once, and keep it.
  const twins = new WeakMap<PreparedHeaders, PreparedHeaders>();
  function twinOf(prepared: PreparedHeaders): PreparedHeaders {
    let twin = twins.get(prepared);
    if (twin === undefined) {
      twin = prepareHeaders({ ...prepared.record, 'content-type': WITH_CHARSET });
      twins.set(prepared, twin);
    }
    return twin;
  }
  function bodyOf({ status, body }: MockResponse): string {
    if (codes.size === 0 || status < 400) return body;
    const match = LEADING_CODE.exec(body);
    const code = match?.[1] === undefined ? undefined : codes.get(match[1]);
    return match && code !== undefined ? `{"code":${JSON.stringify(code)}${body.slice(match[0].length)}` : body;
  }
  return (response) => {
    const { status, headers, prepared, logDetail } = response;
    const made = { status, body: bodyOf(response), ...(logDetail === undefined ? {} : { logDetail }) };
    if (!charset || headers['content-type'] !== JSON_CONTENT_TYPE) return { ...made, headers, ...(prepared === undefined ? {} : { prepared }) };
    if (prepared === undefined) return { ...made, headers: { ...headers, 'content-type': WITH_CHARSET } };
    const twin = twinOf(prepared);
    return { ...made, headers: twin.record, prepared: twin };
  };
}
