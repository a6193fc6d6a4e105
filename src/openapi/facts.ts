import { openapi } from '../generated/openapi.js';
import { basePathOf } from './document.js';

/**
 * Facts of the interface that code needs as values, read from the generated copy of
 * spec/openapi.yaml so that none of them is written twice. The generated document has literal
 * types, so each fact is typed by the spec itself and a fact the spec loses fails to compile.
 */
export const PET_STATUSES = openapi.components.schemas.PetStatus.enum;

/** The path prefix of every operation: `/v1`. */
export const BASE_PATH = basePathOf(openapi);

/** Stable error codes and the HTTP status of the response each is sent in. */
export const ERROR_CODES = openapi.components.schemas.Error['x-error-codes'];
export type ErrorCode = keyof typeof ERROR_CODES;

function isErrorCode(name: string): name is ErrorCode {
  return Object.hasOwn(ERROR_CODES, name);
}

/** The first code the catalogue names for each status: the code of an Error response made from a status alone. */
export const ERROR_CODE_BY_STATUS: ReadonlyMap<number, ErrorCode> = new Map(
  Object.keys(ERROR_CODES)
    .filter(isErrorCode)
    .reverse()
    .map((code) => [ERROR_CODES[code].status, code]),
);

/** The largest request body accepted by createPet, in bytes. */
export const MAX_BODY_BYTES: number = openapi.paths['/pets'].post['x-max-body-bytes'];
