// Generated from PROFILE_SCHEMA (src/profile/profile.ts) by `npm run generate`. Do not edit.
import type { ValidateFunction } from 'ajv';

/** Whether a value is a profile document by PROFILE_SCHEMA; its first fault in `errors` when not. */
export declare const validate: ValidateFunction<unknown>;
