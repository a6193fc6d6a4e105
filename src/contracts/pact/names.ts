/** The consumer contract this package ships: the front-end `petstore-web` of `petstore-api`. */
export const CONSUMER = 'petstore-web';
export const PROVIDER = 'petstore-api';
export const PACT_FILE = `${CONSUMER}-${PROVIDER}.json`;

/** Provider states the shipped pact uses; the verifier knows how to set up each through the API. */
export const STATES = {
  petsExist: 'pets exist',
  soldPetExists: 'a sold pet exists',
  petExists: 'a pet exists',
  petAbsent: 'no pet has the requested id',
  categoryExists: 'a category exists',
} as const;
