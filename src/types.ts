import type { components } from './generated/spec-types.js';

/**
 * Availability status of an animal: `available`, `pending` or `sold`.
 * @example
 * const status: PetStatus = 'sold';
 */
export type PetStatus = components['schemas']['PetStatus'];
/**
 * The body of a request that adds an animal; `status` defaults to `available`.
 * @example
 * const rex: NewPet = { name: 'Rex', categoryId: 3 };
 */
export type NewPet = components['schemas']['NewPet'];
/**
 * An animal as the service returns it, with its assigned `id`.
 * @example
 * const pet: Pet = { id: 1, name: 'Gus', categoryId: 8, status: 'available' };
 */
export type Pet = components['schemas']['Pet'];
/**
 * The body of every error response; `status` equals the HTTP status.
 * @example
 * const body = (await response.json()) as ApiError; // { code: 'unauthorized', message: '...', status: 401 }
 */
export type ApiError = components['schemas']['Error'];
