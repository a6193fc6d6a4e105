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

/** What petstore-verify asks of Pact's native verifier: one run over pact files, resolving to its JSON report (rejecting with it in `message` when an interaction failed). */
export interface PactCore {
  verifyPacts(options: {
    readonly providerBaseUrl: string;
    readonly providerStatesSetupUrl: string;
    readonly pactUrls: string[];
    readonly logLevel: 'error';
    readonly timeout: number;
  }): Promise<string>;
}

/**
 * Pact's native verifier, loaded on first use: `@pact-foundation/pact-core`, resolved from where
 * `@pact-foundation/pact` is installed, so it is the version Pact itself depends on. Pact JS's
 * `Verifier` wraps this same call, but first loads express and puts a proxy of its own in front of the
 * provider for state handlers and request filters (some 0.35 s of CPU to load, and a server started
 * per verification), none of which petstore-verify uses: its own bounded proxy and state endpoint are
 * given to the native verifier directly. `undefined` when Pact is not installed.
 */
export function loadPactCore(): PactCore | undefined {
  if (!pactInstalled()) return undefined;
  const fromPact = createRequire(createRequire(import.meta.url).resolve(PACT));
  const core: { readonly default: PactCore } = fromPact('@pact-foundation/pact-core');
  return core.default;
}
