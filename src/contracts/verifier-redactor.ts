/**
 * How petstore-verify hides its key: a module of its own, light enough for the CLI to load before it
 * knows whether it runs at all (`--version`, a usage error), where http.ts would bring the whole client.
 */
import { KeyRedactor } from '../redact/key-redactor.js';

/** What the key is replaced by in everything petstore-verify records: a shell expands it in a pasted curl. */
export const KEY_PLACEHOLDER = '$PETSTORE_API_KEY';

/**
 * The redactor of everything petstore-verify records of `key`: the package's one redactor
 * (src/redact/), with the key replaced by `KEY_PLACEHOLDER`, and a key under 8 characters only as a
 * token of its own, so that a key `1` leaves the ids and URLs of a report alone.
 * @example
 * verifierRedactor(key).text(`echo: ${btoa(`u:${key}`)}`); // no form of the key left
 */
export function verifierRedactor(key: string): KeyRedactor {
  return new KeyRedactor([key], { placeholder: KEY_PLACEHOLDER, shortAsToken: true });
}
