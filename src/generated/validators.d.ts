// Generated from spec/openapi.yaml by `npm run generate`. Do not edit.
import type { ValidateFunction } from 'ajv';

export declare const PetStatus: ValidateFunction;
export declare const NewPet: ValidateFunction;
export declare const Pet: ValidateFunction;
export declare const Pets: ValidateFunction;
export declare const Error: ValidateFunction;
export declare const listPetsQuery: ValidateFunction;
export declare const listPets200: ValidateFunction;
export declare const listPets400: ValidateFunction;
export declare const listPets401: ValidateFunction;
export declare const createPetBody: ValidateFunction;
export declare const createPet201: ValidateFunction;
export declare const createPet400: ValidateFunction;
export declare const createPet401: ValidateFunction;
export declare const createPet413: ValidateFunction;
export declare const createPet415: ValidateFunction;
export declare const getPetPath: ValidateFunction;
export declare const getPet200: ValidateFunction;
export declare const getPet400: ValidateFunction;
export declare const getPet401: ValidateFunction;
export declare const getPet404: ValidateFunction;
export declare const getPet410: ValidateFunction;
