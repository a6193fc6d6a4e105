/**
 * `petstore-mock`: the stateful mock of the pet store API as a library, for a dev server or a test
 * suite's global setup, and the API's types. Nothing here needs `msw`; see `petstore-mock/msw`.
 */

export { EXIT, type ExitCode, PetstoreError, SpecError, StateFileError, StoreUnavailableError, UsageError } from './errors.js';
export { DEFAULT_API_KEY, MOCK_DEFAULTS } from './mock/core/defaults.js';
export { createMockApi, type MockApi, type MockOptions } from './mock/create-mock-api.js';
export { type MockServer, type MockServerOptions, startMockServer } from './mock/hosts/node-server.js';
export type { LabelledApiKey } from './mock/pipeline/auth.js';
export type { ComparedResponse, Drift, DriftAspect } from './mock/profile/drift.js';
export { type ContractViolation, type DriftReport, type ProxyOptions, type ProxyServer, startProxyServer } from './mock/proxy/proxy-server.js';
export type { CoverageReport, OperationCoverage } from './mock/state/coverage.js';
export type { JournalEntry, JournalFilter, JournalPage, JournalRule } from './mock/state/journal.js';
export type { DataPet } from './mock/state/pet-data.js';
export type { PetDraft, PetStore, StoredPet } from './mock/state/store.js';
export { compileSpec } from './openapi/ajv.js';
export type { CompiledSpec } from './openapi/bundled-model.js';
export { loadSpecFile } from './openapi/load.js';
export { type ListOrder, PROFILE_SCHEMA, type Profile, type ProfileDocument, readProfile, UNKNOWN, UNKNOWN_PROFILE } from './profile/profile.js';
export type { ApiError, NewPet, Pet, PetStatus } from './types.js';
