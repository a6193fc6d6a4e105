/**
 * A profile: the choices a deployment made where the interface leaves room, as a versioned JSON
 * document (`schemas/profile.schema.json`). `petstore-verify --write-profile` learns one; the mock
 * (`--profile`, `startMockServer({ profile })`, `createHandlers({ profile })`) adopts it. A profile
 * only selects among answers the contract allows: anything else is refused at start, naming the field.
 */
import type { ValidateFunction } from 'ajv';
import { validate } from '../generated/profile-validator.js';
import { ERROR_CODES, type ErrorCode, PET_STATUSES } from '../openapi/facts.js';
import { namedValues } from '../terminal/excerpt-text.js';
import type { PetStatus } from '../types.js';

/** A choice the profile does not know: the mock keeps its own default for it. */
export const UNKNOWN = 'unknown';
type Unknown = typeof UNKNOWN;

/**
 * How the mock orders names (and statuses) under a `name` or `status` listOrder: by UTF-16 code
 * units, as a binary collation does, so that the order is the same on every machine.
 */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A deployment may sort names by a language's collation instead (`Rex` after `petstore`): `inOrder` accepts either. */
function collate(a: string, b: string): number {
  return a.localeCompare(b);
}

/** The order of `listPets`: by id ascending or descending (newest first), by name, or by status (ties by id). */
export type ListOrder = 'id-asc' | 'id-desc' | 'name' | 'status';

/** Every order a page may show, the id orders first: a page sorted by id is not said to be sorted by name by chance. */
export const LIST_ORDERS: readonly ListOrder[] = ['id-asc', 'id-desc', 'name', 'status'];

/** What `inOrder` reads of a pet: its id as exact digits, its name and status. */
export interface Ordered {
  readonly id: string;
  readonly name: string;
  readonly status?: string | undefined;
}

/**
 * An id as the exact integer its digits write, or `undefined` for what no page's order can read: a page
 * is a deployment's answer and may hold anything (no id, `1.5`, `"abc"`, a million digits).
 */
function exactIdOf(digits: string): bigint | undefined {
  return digits.length <= 64 && /^-?\d+$/.test(digits) ? BigInt(digits) : undefined;
}

/** Two ids in order; an id that is no integer is in no id order. */
function compareIds(a: string, b: string): number {
  const [x, y] = [exactIdOf(a), exactIdOf(b)];
  if (x === undefined || y === undefined) return 1;
  return x < y ? -1 : x > y ? 1 : 0;
}

type Compare = (a: Ordered, b: Ordered) => number;

const ORDER_OF: { readonly [O in ListOrder]: readonly Compare[] } = {
  'id-asc': [(a, b) => compareIds(a.id, b.id)],
  'id-desc': [(a, b) => compareIds(b.id, a.id)],
  name: [(a, b) => compareNames(a.name, b.name), (a, b) => collate(a.name, b.name)],
  status: [(a, b) => compareNames(a.status ?? '', b.status ?? '')],
};

/**
 * Whether a page of pets follows `order` (for name and status, ties in any order; names by code
 * units or by a language's collation).
 * @example
 * inOrder('id-desc', [{ id: '3', name: 'Rex' }, { id: '1', name: 'Gus' }]); // true
 */
export function inOrder(order: ListOrder, pets: readonly Ordered[]): boolean {
  return ORDER_OF[order].some((compare) =>
    pets.every((pet, index) => {
      const before = pets[index - 1];
      return before === undefined || compare(before, pet) <= 0;
    }),
  );
}

/**
 * The choices of one deployment; every field is `unknown` when not learned.
 * @example
 * const profile: Profile = { ...UNKNOWN_PROFILE, limitOutOfRange: 'clamp', listOrder: 'id-desc' };
 */
export interface Profile {
  /** 1, or 2 when the document uses a field version 2 added (`limitAboveMaximum`, `limitBelowMinimum`). */
  readonly version: ProfileVersion;
  /** `listPets` with an integer `limit` outside the spec's bounds: refused with 400, or clamped into range. */
  readonly limitOutOfRange: 'refuse' | 'clamp' | Unknown;
  /** Version 2: `listPets` with an integer `limit` above the spec's maximum only, when the deployment treats the two sides apart (a gateway's `min(limit, maximum)`); known, it wins over `limitOutOfRange` on that side. */
  readonly limitAboveMaximum: 'refuse' | 'clamp' | Unknown;
  /** Version 2: `listPets` with an integer `limit` below the spec's minimum only; known, it wins over `limitOutOfRange` on that side. */
  readonly limitBelowMinimum: 'refuse' | 'clamp' | Unknown;
  /** `listPets` with a `limit` that is not an integer: refused with 400, or ignored (the default page). Unknown: as `limitOutOfRange` says (clamp ignores it). */
  readonly limitNotInteger: 'refuse' | 'ignore' | Unknown;
  /** `listPets` with a `status` outside the enum: refused with 400, or answered with an empty page. */
  readonly unknownStatus: 'refuse' | 'empty' | Unknown;
  /** The status of a pet added without one; `omitted`: the pet has none. */
  readonly defaultStatus: PetStatus | 'omitted' | Unknown;
  readonly listOrder: ListOrder | Unknown;
  /** `getPet` with a petId that is not an integer: 400 or 404. */
  readonly nonIntegerPetId: 400 | 404 | Unknown;
  /** Categories a new pet may name: any int64, or only these (exact digits); others are refused with 400. */
  readonly categories: 'any' | { readonly known: readonly string[] } | Unknown;
  /** How ids are assigned: increasing (a sequence, time-ordered ids), or in no order (random). */
  readonly idScheme: 'increasing' | 'random' | Unknown;
  /** Whether ids pass 2^53, so that clients reading them into doubles lose them. */
  readonly idsBeyondDouble: boolean | Unknown;
  /** The deployment's Error `code` for each situation, named by the spec's own code (`x-error-codes`); a situation left out keeps the spec's code. */
  readonly errorCodes: Readonly<Partial<Record<ErrorCode, string>>>;
  /** `Content-Type` of JSON answers: `application/json` (`none`) or `application/json; charset=utf-8`. */
  readonly charset: 'none' | 'utf-8' | Unknown;
  /** getPet's `Deprecation` header: the RFC 9745 date (`@1748736000`) or the legacy `true`. */
  readonly deprecation: 'rfc9745' | 'legacy' | Unknown;
}

/** The versions of the document format: 2 added the two sides of the limit's range. */
export type ProfileVersion = 1 | 2;

/** The fields version 2 added: a document that uses one says version 2, so that a mock that knows only version 1 refuses it by its version. */
const VERSION_2_FIELDS = ['limitAboveMaximum', 'limitBelowMinimum'] as const;

/** The version a profile's document needs: 2 when it knows a field version 2 added, else 1 (which every mock reads). */
export function versionFor(profile: Omit<Profile, 'version'>): ProfileVersion {
  return VERSION_2_FIELDS.some((field) => profile[field] !== UNKNOWN) ? 2 : 1;
}

/** The profile that knows nothing: the mock as it is without one. */
export const UNKNOWN_PROFILE: Profile = Object.freeze({
  version: 1,
  limitOutOfRange: UNKNOWN,
  limitAboveMaximum: UNKNOWN,
  limitBelowMinimum: UNKNOWN,
  limitNotInteger: UNKNOWN,
  unknownStatus: UNKNOWN,
  defaultStatus: UNKNOWN,
  listOrder: UNKNOWN,
  nonIntegerPetId: UNKNOWN,
  categories: UNKNOWN,
  idScheme: UNKNOWN,
  idsBeyondDouble: UNKNOWN,
  errorCodes: {},
  charset: UNKNOWN,
  deprecation: UNKNOWN,
});

const oneOf = (values: readonly (string | number | boolean)[], description: string) => ({ enum: [...values, UNKNOWN], description });

/** The JSON Schema of a profile, published as `schemas/profile.schema.json` (a test keeps the two equal). */
/**
 * An Error code a profile may hold: 1 to 100 characters, none of them a control character (C0, DEL,
 * C1) or an invisible format character (zero-width, bidirectional marks and overrides, the BOM): a
 * mock with the profile serves the code in every error answer, where such a character would hide or
 * reorder what a reader sees.
 */
const ERROR_CODE_SCHEMA = {
  type: 'string',
  minLength: 1,
  maxLength: 100,
  pattern: '^[^\\u0000-\\u001F\\u007F-\\u009F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2069\\uFEFF]+$',
} as const;

/** Whether a profile may hold `code` as an Error code (`ERROR_CODE_SCHEMA`, the schema's own rule). */
export function isProfileErrorCode(code: string): boolean {
  return code.length >= ERROR_CODE_SCHEMA.minLength && code.length <= ERROR_CODE_SCHEMA.maxLength && new RegExp(ERROR_CODE_SCHEMA.pattern, 'u').test(code);
}

export const PROFILE_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://github.com/petstore-mock/petstore-mock/schemas/profile.schema.json',
  title: 'petstore-mock profile',
  description: 'The choices a deployment of the pet store interface made where the interface leaves room. Every choice is "unknown" when not learned.',
  type: 'object',
  additionalProperties: false,
  required: ['version'],
  // The fields version 2 added need version 2: a document a version-1 mock would misread says so.
  if: { properties: { version: { const: 1 } } },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, a plain object never awaited
  then: { properties: Object.fromEntries(VERSION_2_FIELDS.map((field) => [field, { const: UNKNOWN }])) },
  properties: {
    version: { enum: [1, 2], description: 'The version of this document format: 2 when it uses limitAboveMaximum or limitBelowMinimum.' },
    limitOutOfRange: oneOf(['refuse', 'clamp'], "listPets with an integer limit outside the spec's bounds: 400, or clamped into range."),
    limitAboveMaximum: oneOf(
      ['refuse', 'clamp'],
      "Version 2. listPets with an integer limit above the spec's maximum only: 400, or clamped to the maximum. Known, it wins over limitOutOfRange on that side.",
    ),
    limitBelowMinimum: oneOf(
      ['refuse', 'clamp'],
      "Version 2. listPets with an integer limit below the spec's minimum only: 400, or clamped to the minimum. Known, it wins over limitOutOfRange on that side.",
    ),
    limitNotInteger: oneOf(
      ['refuse', 'ignore'],
      'listPets with a limit that is not an integer: 400, or ignored (the default page). Unknown: as limitOutOfRange says.',
    ),
    unknownStatus: oneOf(['refuse', 'empty'], 'listPets with a status outside the enum: 400, or an empty page.'),
    defaultStatus: oneOf([...PET_STATUSES, 'omitted'], 'The status of a pet added without one; "omitted": the pet has none.'),
    listOrder: oneOf(LIST_ORDERS, 'The order of listPets.'),
    nonIntegerPetId: oneOf([400, 404], 'getPet with a petId that is not an integer.'),
    categories: {
      description: 'Categories a new pet may name: "any", or only the known ones (others refused with 400).',
      oneOf: [
        { enum: ['any', UNKNOWN] },
        {
          type: 'object',
          additionalProperties: false,
          required: ['known'],
          properties: { known: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', pattern: '^-?(0|[1-9][0-9]{0,18})$' } } },
        },
      ],
    },
    idScheme: oneOf(['increasing', 'random'], 'How ids are assigned.'),
    idsBeyondDouble: oneOf([true, false], 'Whether ids pass 2^53.'),
    errorCodes: {
      type: 'object',
      description: "The deployment's Error code for each situation, named by the spec's code (x-error-codes).",
      additionalProperties: false,
      properties: Object.fromEntries(Object.keys(ERROR_CODES).map((code) => [code, ERROR_CODE_SCHEMA])),
    },
    charset: oneOf(['none', 'utf-8'], 'Content-Type of JSON answers: application/json, or with charset=utf-8.'),
    deprecation: oneOf(['rfc9745', 'legacy'], "getPet's Deprecation header: the RFC 9745 date, or the legacy true."),
  },
} as const;

/**
 * A profile as written in a file: every choice but the version may be left out (it is then `unknown`).
 * @example
 * const document: ProfileDocument = { version: 1, limitOutOfRange: 'clamp' };
 */
export type ProfileDocument = Partial<Profile> & { readonly version: ProfileVersion };

/**
 * `PROFILE_SCHEMA`'s validator, compiled by `npm run generate` (src/generated/profile-validator.js), so
 * that no JSON Schema compiler is loaded to read a profile, in a browser bundle least of all.
 */
// Safe: generated from PROFILE_SCHEMA, which describes ProfileDocument; test/tooling/generated.test.ts keeps it in step.
const validator = validate as ValidateFunction<ProfileDocument>;

/**
 * `value` as a profile, every choice it leaves out `unknown`; a value that is not one throws a
 * `TypeError` naming the field and what it may be.
 * @example
 * readProfile({ version: 1, listOrder: 'id-desc' }); // { ...UNKNOWN_PROFILE, listOrder: 'id-desc' }
 * readProfile({ version: 1, defaultStatus: 'lost' }); // TypeError: profile.defaultStatus must be one of available, pending, sold, omitted, unknown
 */
export function readProfile(value: unknown): Profile {
  if (!validator(value)) {
    const error = validator.errors?.[0];
    const field = `profile${(error?.instancePath ?? '').replace(/\//g, '.')}`;
    if (error?.keyword === 'const' && error.instancePath !== '/version')
      throw new TypeError(`${field} needs "version": 2 (version 1 has no such field); write "version": 2, which petstore-mock reads from this release on`);
    const allowed = error?.params && 'allowedValues' in error.params ? ` one of ${namedValues([error.params.allowedValues].flat())}` : '';
    const extra = error?.params && 'additionalProperty' in error.params ? ` (no field ${String(error.params.additionalProperty)})` : '';
    throw new TypeError(`${field} ${allowed ? `must be${allowed}` : (error?.message ?? 'is invalid')}${extra}`);
  }
  return { ...UNKNOWN_PROFILE, ...value, errorCodes: { ...(value.errorCodes ?? {}) } };
}

/**
 * A profile as a document to write: version 1, without the fields version 2 added, unless it knows
 * one of them, so that a mock of an earlier release reads what it can.
 * @example
 * profileDocument({ ...UNKNOWN_PROFILE, listOrder: 'name' }); // { version: 1, ..., listOrder: 'name' } (no limitAboveMaximum)
 */
export function profileDocument(profile: Profile): ProfileDocument {
  const version = versionFor(profile);
  if (version === 2) return { ...profile, version };
  const document: Partial<Record<keyof Profile, unknown>> = { ...profile, version };
  for (const field of VERSION_2_FIELDS) delete document[field];
  // Safe: a copy of a Profile, less fields a ProfileDocument may leave out.
  return document as ProfileDocument;
}

/** Whether `value` is a known choice, not `unknown`. */
export function known<T>(value: T | Unknown): value is T {
  return value !== UNKNOWN;
}
