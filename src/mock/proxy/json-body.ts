import { type JsonValue, parseJson } from '../../json/lossless.js';

/** The body parsed (losslessly, so an int64 id keeps its digits); `undefined` when it is not JSON. */
export function parsedBody(text: string): JsonValue | undefined {
  try {
    return parseJson(text);
  } catch {
    return undefined;
  }
}
