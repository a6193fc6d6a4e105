import { parseItem, Token } from 'structured-headers';

/** A deployment's `Deprecation` header, read. */
export type Deprecation =
  /** RFC 9745: a structured-field Date, `@1748736000`, when the operation was deprecated. */
  | { readonly form: 'date'; readonly since: Date }
  /** The draft's form, `true`, which deployments still send. */
  | { readonly form: 'legacy' }
  | { readonly form: 'unreadable'; readonly value: string };

/** Reads a `Deprecation` header in either form a correct deployment may send. */
export function readDeprecation(value: string): Deprecation {
  try {
    const [item] = parseItem(value);
    if (item instanceof Date) return { form: 'date', since: item };
    if (item instanceof Token && item.toString() === 'true') return { form: 'legacy' };
  } catch {
    // Not a structured field at all: reported as unreadable below.
  }
  return { form: 'unreadable', value };
}
