/**
 * `@pact-foundation/pact` is an optional peer dependency: it brings a native verifier of some
 * 16 MB that teams who only want the mock, the MSW handlers or the fixtures should not install.
 * Only `--suite pact` and `--suite all` load it, and say how to install it when it is missing.
 */
import { createRequire } from 'node:module';

const PACT = '@pact-foundation/pact';

/** What to do when the Pact suite is asked for without the package: one line. */
export const PACT_INSTALL_HINT = `--suite pact and --suite all need ${PACT}: run \`npm install --save-dev ${PACT}\`, or verify with --suite spec only.`;

/** Whether `@pact-foundation/pact` resolves from here, as the worker's import would resolve it, without loading it. */
export function pactInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve(PACT);
    return true;
  } catch {
    return false;
  }
}

/** Pact's `Verifier`, loaded on first use; `undefined` when the package is not installed. */
export async function loadPactVerifier(): Promise<typeof import('@pact-foundation/pact').Verifier | undefined> {
  if (!pactInstalled()) return undefined;
  return (await import('@pact-foundation/pact')).Verifier;
}
