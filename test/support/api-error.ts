import { expect } from 'vitest';
import { ApiError } from '../../src/client/index.js';

/** The `ApiError` a client call rejects with; fails the test when it resolves or rejects otherwise. */
export async function apiErrorOf(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}
