/**
 * The depth rule of every JSON input (`MAX_JSON_DEPTH`, 128 levels), for a value the code API is given
 * as it is rather than as text: the CLI refuses a `--data` or `--spec` file nesting deeper, or a YAML
 * alias inside itself, with a sentence, and the code API's `data` and `compileSpec(doc)` once ended
 * in "Maximum call stack size exceeded" (a pet holding itself, or 100,000 levels) and took 200 levels.
 * Measured in one walk without recursion, each object once (a value shared by many parents is measured once).
 */
import { MAX_JSON_DEPTH } from './lossless.js';

interface Frame {
  readonly node: object;
  readonly children: unknown[];
  next: number;
  /** The most levels below this node found so far. */
  below: number;
}

/**
 * Why `root` cannot be read as JSON data, or `undefined`: it holds itself (an object inside itself,
 * which would make it endless), or its arrays and objects nest deeper than `MAX_JSON_DEPTH` levels.
 * @example
 * const pet: Record<string, unknown> = { id: 1 };
 * pet.self = pet;
 * nestingProblem([pet]); // 'it holds itself (an object or array inside itself), which would make it endless'
 */
export function nestingProblem(root: unknown): string | undefined {
  if (typeof root !== 'object' || root === null) return undefined;
  const tooDeep = `its arrays and objects nest deeper than ${MAX_JSON_DEPTH} levels`;
  const levelsBelow = new Map<object, number>();
  const onPath = new Set<object>();
  const stack: Frame[] = [{ node: root, children: Object.values(root), next: 0, below: 0 }];
  onPath.add(root);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    if (frame.next < frame.children.length) {
      const child = frame.children[frame.next++];
      if (typeof child !== 'object' || child === null) continue;
      if (onPath.has(child)) return 'it holds itself (an object or array inside itself), which would make it endless';
      const known = levelsBelow.get(child);
      if (known !== undefined) {
        // The child's levels, counted from here: this one's depth, the child, and those below it.
        if (stack.length + 1 + known > MAX_JSON_DEPTH) return tooDeep;
        frame.below = Math.max(frame.below, known + 1);
        continue;
      }
      if (stack.length >= MAX_JSON_DEPTH) return tooDeep;
      onPath.add(child);
      stack.push({ node: child, children: Object.values(child), next: 0, below: 0 });
      continue;
    }
    stack.pop();
    onPath.delete(frame.node);
    levelsBelow.set(frame.node, frame.below);
    const parent = stack[stack.length - 1];
    if (parent !== undefined) parent.below = Math.max(parent.below, frame.below + 1);
  }
  return undefined;
}

/**
 * Whether `root`, written as JSON, would pass `maxBytes`: the rule of a file's size, for a document given
 * as a value. Counted as the walk goes (each string by its length, each other value as a byte or more), and
 * stopped as soon as it passes, so the cost is at most `maxBytes` steps whatever the value holds. Run after
 * `nestingProblem`, which refuses a value inside itself.
 * @example
 * passesBytes({ a: 'x'.repeat(100) }, 64); // true
 */
export function passesBytes(root: unknown, maxBytes: number): boolean {
  let bytes = 0;
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node === 'string') bytes += node.length + 2;
    else if (Array.isArray(node)) {
      bytes += 2;
      for (const item of node) {
        pending.push(item);
        if (++bytes > maxBytes) return true;
      }
    } else if (typeof node === 'object' && node !== null) {
      bytes += 2;
      for (const key in node) {
        pending.push((node as Record<string, unknown>)[key]);
        bytes += key.length + 4;
        if (bytes > maxBytes) return true;
      }
    } else bytes += 4;
    if (bytes > maxBytes) return true;
  }
  return false;
}
