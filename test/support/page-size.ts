/**
 * `limit`'s bounds and default, as the spec gives them: read from the list operation of the resource
 * model the mock and the verifier read, so a test that asks for a full page, steps past the range or
 * names the range in a message follows the spec when its schema changes, with no edit.
 */
import { DEFAULT_COUNT } from '../../src/fixtures/seeding.js';
import { BUNDLED_MODEL } from '../../src/openapi/bundled-model.js';
import { operationOfKind } from '../../src/openapi/resource-model.js';

const pageSize = operationOfKind(BUNDLED_MODEL, 'list')?.pageSize;
if (pageSize?.default === undefined) throw new Error("the spec's list operation has no page size with a default: tests read limit's bounds from it");

/** `limit`'s `minimum`, `maximum` and `default`. */
export const LIMIT = { minimum: pageSize.minimum, maximum: pageSize.maximum, default: pageSize.default } as const;

/** The query of the largest page the spec allows, `limit=` its maximum: every seeded pet when the seed fits in a page. */
export const FULL_PAGE = `limit=${LIMIT.maximum}`;

/** Pets enough that a clamp of `limit` to its maximum shows: half a largest page more than one. */
export const MORE_THAN_A_PAGE = Math.ceil(LIMIT.maximum * 1.5);

/**
 * A seed that leaves room on one full page for the `added` pets a test adds, so that a listing shows
 * them all: the default seed, or fewer pets when the spec's largest page would not hold them.
 */
export function seedLeavingRoom(added: number): number {
  return Math.min(DEFAULT_COUNT, LIMIT.maximum - added);
}

/** A seed that leaves room on a full page for a few pets (ten at the most). */
export const SEED_WITH_ROOM = seedLeavingRoom(10);

/** The 400 message of an integer `limit` outside its bounds, as the mock words it (without the full stop). */
export const LIMIT_RANGE_MESSAGE = `limit must be an integer from ${LIMIT.minimum} to ${LIMIT.maximum}`;
