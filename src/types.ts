import type { components } from './generated/types.js';

/** Availability status of an animal: `available`, `pending` or `sold`. */
export type PetStatus = components['schemas']['PetStatus'];
/** The body of a request that adds an animal. */
export type NewPet = components['schemas']['NewPet'];
/** An animal as the service returns it, with its assigned `id`. */
export type Pet = components['schemas']['Pet'];
/** The body of every error response; `status` equals the HTTP status. */
export type ApiError = components['schemas']['Error'];
