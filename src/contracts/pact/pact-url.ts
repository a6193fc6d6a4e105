/**
 * The rule for a `--pact` URL, light enough for the CLI to check before a run (as it checks
 * `--base-url`), and checked again where the run reads the pacts (the code API's `pacts`).
 */
import { withoutUserinfo } from '../../http/user-url.js';

/**
 * Why a `--pact` URL cannot be read, or `undefined`: one with credentials in it (`user:key@`), which
 * fetch refuses and which a report would show, as `--base-url` is refused.
 */
export function pactUrlProblem(source: string): string | undefined {
  if (!/^https?:\/\//i.test(source)) return undefined;
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    return `--pact ${withoutUserinfo(source)} is not a URL; give a file, or a URL like https://broker.example.com/pacts/petstore.json`;
  }
  if (url.username === '' && url.password === '') return undefined;
  return `--pact ${withoutUserinfo(source)} carries credentials ("user:password@"), which petstore-verify neither sends nor shows: give the URL without them, or download the pact and give the file`;
}
