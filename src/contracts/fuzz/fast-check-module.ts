/**
 * `fast-check` is an optional peer dependency, as `@pact-foundation/pact` is: with it the installed
 * package would pass its 10 MB budget (test/package/install.test.ts), for a suite only some teams run.
 * Only the fuzz suite loads it, and says how to install it when it is missing.
 */
import { createRequire } from 'node:module';

/** What to do when the fuzz suite is asked for without the package: one line. */
export const FAST_CHECK_INSTALL_HINT =
  'the fuzz suite (--suite fuzz, --fuzz-runs) needs fast-check: run `npm install --save-dev fast-check`, or verify without it.';

/** Whether `fast-check` resolves from here, as the fuzz suite's import would resolve it, without loading it. */
export function fastCheckInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('fast-check');
    return true;
  } catch {
    return false;
  }
}
