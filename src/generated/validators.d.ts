// Generated from spec/openapi.yaml by `npm run generate`. Do not edit.
import type { ValidateFunction } from 'ajv';
import type { components, operations } from './spec-types.js';

/** `T` as ajv leaves it once it has filled in the schema's defaults: the properties `K` are there. */
type Defaulted<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: Exclude<T[P], undefined> };

export declare const PetStatus: ValidateFunction<components['schemas']["PetStatus"]>;
export declare const NewPet: ValidateFunction<components['schemas']["NewPet"]>;
export declare const Pet: ValidateFunction<components['schemas']["Pet"]>;
export declare const Pets: ValidateFunction<components['schemas']["Pets"]>;
export declare const Error: ValidateFunction<components['schemas']["Error"]>;
export declare const listPetsQuery: ValidateFunction<Defaulted<NonNullable<operations["listPets"]['parameters']["query"]>, "limit">>;
export declare const listPets200: ValidateFunction<operations["listPets"]['responses'][200]['content']['application/json']>;
export declare const listPets400: ValidateFunction<operations["listPets"]['responses'][400]['content']['application/json']>;
export declare const listPets401: ValidateFunction<operations["listPets"]['responses'][401]['content']['application/json']>;
export declare const listPets401Headers: ValidateFunction<Readonly<Record<string, string>>>;
export declare const listPets429: ValidateFunction<operations["listPets"]['responses'][429]['content']['application/json']>;
export declare const listPets429Headers: ValidateFunction<Readonly<Record<string, string>>>;
export declare const listPets500: ValidateFunction<operations["listPets"]['responses'][500]['content']['application/json']>;
export declare const listPets503: ValidateFunction<operations["listPets"]['responses'][503]['content']['application/json']>;
export declare const listPets503Headers: ValidateFunction<Readonly<Record<string, string>>>;
export declare const createPetBody: ValidateFunction<Defaulted<NonNullable<operations["createPet"]['requestBody']>['content']['application/json'], "status">>;
export declare const createPet201: ValidateFunction<operations["createPet"]['responses'][201]['content']['application/json']>;
export declare const createPet201Headers: ValidateFunction<Readonly<Record<string, string>>>;
export declare const createPet400: ValidateFunction<operations["createPet"]['responses'][400]['content']['application/json']>;
export declare const createPet401: ValidateFunction<operations["createPet"]['responses'][401]['content']['application/json']>;
export declare const createPet401Headers: ValidateFunction<Readonly<Record<string, string>>>;
export declare const createPet413: ValidateFunction<operations["createPet"]['responses'][413]['content']['application/json']>;
export declare const createPet415: ValidateFunction<operations["createPet"]['responses'][415]['content']['application/json']>;
export declare const createPet429: ValidateFunction<operations["createPet"]['responses'][429]['content']['application/json']>;
export declare const createPet429Headers: ValidateFunction<Readonly<Record<string, string>>>;
export declare const createPet500: ValidateFunction<operations["createPet"]['responses'][500]['content']['application/json']>;
export declare const createPet503: ValidateFunction<operations["createPet"]['responses'][503]['content']['application/json']>;
export declare const createPet503Headers: ValidateFunction<Readonly<Record<string, string>>>;
export declare const getPetPath: ValidateFunction<NonNullable<operations["getPet"]['parameters']["path"]>>;
export declare const getPet200: ValidateFunction<operations["getPet"]['responses'][200]['content']['application/json']>;
export declare const getPet200Headers: ValidateFunction<Readonly<Record<string, string>>>;
export declare const getPet400: ValidateFunction<operations["getPet"]['responses'][400]['content']['application/json']>;
export declare const getPet400Headers: ValidateFunction<Readonly<Record<string, string>>>;
export declare const getPet401: ValidateFunction<operations["getPet"]['responses'][401]['content']['application/json']>;
export declare const getPet401Headers: ValidateFunction<Readonly<Record<string, string>>>;
export declare const getPet404: ValidateFunction<operations["getPet"]['responses'][404]['content']['application/json']>;
export declare const getPet404Headers: ValidateFunction<Readonly<Record<string, string>>>;
export declare const getPet410: ValidateFunction<operations["getPet"]['responses'][410]['content']['application/json']>;
export declare const getPet410Headers: ValidateFunction<Readonly<Record<string, string>>>;
export declare const getPet429: ValidateFunction<operations["getPet"]['responses'][429]['content']['application/json']>;
export declare const getPet429Headers: ValidateFunction<Readonly<Record<string, string>>>;
export declare const getPet500: ValidateFunction<operations["getPet"]['responses'][500]['content']['application/json']>;
export declare const getPet500Headers: ValidateFunction<Readonly<Record<string, string>>>;
export declare const getPet503: ValidateFunction<operations["getPet"]['responses'][503]['content']['application/json']>;
export declare const getPet503Headers: ValidateFunction<Readonly<Record<string, string>>>;

/** Each operation's response validators, by status: every status whose answer has a JSON body. */
export declare const responseValidators: ReadonlyMap<keyof operations, ReadonlyMap<number, ValidateFunction<unknown>>>;

/** Each operation's validators of the headers its responses document, by status, over lower-case names. */
export declare const headerValidators: ReadonlyMap<keyof operations, ReadonlyMap<number, ValidateFunction<Readonly<Record<string, string>>>>>;
