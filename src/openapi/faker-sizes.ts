/**
 * What an `x-faker` may ask faker to draw, bounded where the spec is read, before anything is drawn. A
 * seeded record is answered whole and must be one a create could carry (`x-max-body-bytes`), and every
 * unit a faker argument counts (a character, a word, a sentence, an item) adds at least one byte to
 * what is drawn: so an argument that counts more units than the record's bytes asks for a record no
 * client could send, and drawing it first is the unbounded buffer (`string.alpha: { length: 1e9 }`
 * exhausted the heap before any check of the drawn record could run).
 *
 * Which arguments count is read from their role in faker's API, never from a list of its methods: an
 * option named `length` or `count`, or ending in `Count` (`wordCount`, `extensionCount`), with its
 * `{ min, max }`; a number given as an argument itself (faker reads a lone number as the method's length
 * or count: `string.alpha(8)`, `lorem.words(3)`); and a number written inside a string argument, which
 * faker's small languages read as a count (`helpers.fromRegExp('a{9}')`, `helpers.fake('{{lorem.words(9)}}')`).
 * A value goes in a named option (`number.int: { max: 5000000 }`), which counts nothing. What the
 * arguments leave to the draw (a `{ min, max }` given as the count itself, a count inside a template's
 * calls) is held by the draw's own budget (src/fixtures/count-budget.ts).
 */
import { SpecError } from '../errors.js';
import type { JsonSchema, OpenApiDocument } from './document.js';

/** An option that counts what is drawn: `length`, `count`, `wordCount`, `sentenceCount`, ... */
const COUNTING_OPTION = /^(?:length|count)$|Count$/;

/** One argument's counted units, with where it stands in the call, for the sentence. */
interface Counted {
  readonly at: string;
  readonly units: number;
}

/** The units a value in a counting place asks for: a number, the `max` of a range, the numbers written in a text. */
function unitsOf(value: unknown): number {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.max(0, value) : Number.POSITIVE_INFINITY;
  if (typeof value === 'string') return [...value.matchAll(/\d+/g)].reduce((sum, [digits]) => sum + Number(digits), 0);
  if (Array.isArray(value)) return value.reduce<number>((sum, item) => sum + unitsOf(item), 0);
  if (typeof value === 'object' && value !== null) {
    const { max } = value as { readonly max?: unknown };
    return max === undefined ? Object.values(value).reduce<number>((sum, item) => sum + unitsOf(item), 0) : unitsOf(max);
  }
  return 0;
}

/** The counting places of one argument: itself when a number or a text, else its counting options, however deep. */
function countedIn(argument: unknown, at: string, into: Counted[]): void {
  if (typeof argument === 'number' || typeof argument === 'string') {
    into.push({ at, units: unitsOf(argument) });
    return;
  }
  if (typeof argument !== 'object' || argument === null) return;
  for (const [name, value] of Object.entries(argument)) {
    // A number under any other name is a value (`max` of `number.int`), never a count.
    if (COUNTING_OPTION.test(name) || typeof value === 'string') into.push({ at: `${at}.${name}`, units: unitsOf(value) });
    else if (typeof value === 'object') countedIn(value, `${at}.${name}`, into);
  }
}

/**
 * The units an `x-faker` hint's arguments count, each with its place (`string.alpha(0).length`), those
 * that count some: a method name alone counts none.
 * @example
 * countedUnits({ 'string.alpha': { length: 8 } }); // [{ at: 'string.alpha(0).length', units: 8 }]
 */
export function countedUnits(hint: unknown): Counted[] {
  if (typeof hint !== 'object' || hint === null) return [];
  const counted: Counted[] = [];
  for (const [method, argument] of Object.entries(hint)) {
    const args: unknown[] = Array.isArray(argument) ? argument : [argument];
    // An array given as an argument is data to draw from (`helpers.arrayElement: [[1, 2]]`), not a count.
    for (const [index, value] of args.entries()) if (!Array.isArray(value)) countedIn(value, `${method}(${index})`, counted);
  }
  return counted.filter((one) => one.units > 0);
}

/** The JSON Pointer of `target` inside `doc`, found by identity (the model keeps the document's own values). */
function pointerOf(doc: unknown, target: unknown, at = '#'): string | undefined {
  if (doc === target) return at;
  if (typeof doc !== 'object' || doc === null) return undefined;
  for (const [name, value] of Object.entries(doc)) {
    const found = pointerOf(value, target, `${at}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Refuses an `x-faker` of a drawn field whose arguments count more units than `limit`, the bytes a
 * create of the record accepts (`where` says which), with a sentence naming the hint's place in the
 * spec, the argument and the limit.
 */
export function checkFakerSizes(
  doc: OpenApiDocument,
  fields: readonly { readonly name: string; readonly schema: JsonSchema }[],
  limit: number,
  where: string,
): void {
  for (const field of fields) {
    const hint = field.schema['x-faker'];
    const counted = countedUnits(hint);
    const units = counted.reduce((sum, { units }) => sum + units, 0);
    if (units <= limit) continue;
    const asked = counted.map((one) => `${one.at} ${one.units}`);
    const place = pointerOf(doc, hint) ?? `the field ${field.name}'s x-faker`;
    throw new SpecError(
      `${place} asks faker for ${units} characters, words or items (${asked.join(', ')}), more than the ${limit} bytes ${where}: each makes a byte of the record at least, so no client could send one; bound its arguments (a value, not a count, goes in a named option such as { max: N })`,
    );
  }
}
