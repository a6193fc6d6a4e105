/**
 * `petstore-mock`: the stateful mock of the pet store API as a library, for a dev server or a test
 * suite's global setup, and the API's types. Nothing here needs `msw`; see `petstore-mock/msw`.
 */
export { DEFAULT_API_KEY, type LabelledApiKey } from './mock/auth.js';
export type { CoverageReport, OperationCoverage } from './mock/coverage.js';
export { MOCK_DEFAULTS } from './mock/defaults.js';
export type { ComparedAnswer, Drift, DriftAspect } from './mock/drift.js';
export { createMockApi, type MockApi, type MockOptions } from './mock/handler.js';
export { type ListOrder, PROFILE_SCHEMA, type Profile, type ProfileDocument, readProfile, UNKNOWN, UNKNOWN_PROFILE } from './mock/profile.js';
export { type ContractViolation, type DriftReport, type ProxyOptions, type ProxyServer, startProxyServer } from './mock/proxy.js';
export { type MockServer, type MockServerOptions, startMockServer } from './mock/server.js';
export { StoreUnavailableError } from './mock/store/redis.js';
export type { PetDraft, PetStore, StoredPet } from './mock/store.js';
export type { ApiError, NewPet, Pet, PetStatus } from './types.js';
