import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, refuseDeepJson } from './lossless.js';
import { nestingProblem } from './nesting.js';

/** `levels` arrays and objects, one inside the other. */
function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level++) value = level % 2 === 0 ? [value] : { a: value };
  return value;
}

describe('nestingProblem', () => {
  it(`takes ${MAX_JSON_DEPTH} levels and refuses one more, as JSON.parse's input is held to (refuseDeepJson)`, () => {
    expect(nestingProblem(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(nestingProblem(nested(MAX_JSON_DEPTH + 1))).toBe(`its arrays and objects nest deeper than ${MAX_JSON_DEPTH} levels`);
    expect(nestingProblem(nested(100_000))).toBe(`its arrays and objects nest deeper than ${MAX_JSON_DEPTH} levels`);
    // The same count as the rule on JSON text.
    expect(() => refuseDeepJson(JSON.stringify(nested(MAX_JSON_DEPTH)))).not.toThrow();
    expect(() => refuseDeepJson(JSON.stringify(nested(MAX_JSON_DEPTH + 1)))).toThrow();
  });

  it('refuses a value that holds itself, and counts a value shared by many parents once (no exponential walk)', () => {
    const pet: Record<string, unknown> = { id: 1 };
    pet.tags = [pet];
    expect(nestingProblem([pet])).toBe('it holds itself (an object or array inside itself), which would make it endless');
    // 60 levels, each holding the one below twice: 2^60 paths, 60 objects.
    let shared: unknown = {};
    for (let n = 0; n < 60; n++) shared = { left: shared, right: shared };
    expect(nestingProblem(shared)).toBeUndefined();
    let deeper: unknown = shared;
    for (let n = 0; n < MAX_JSON_DEPTH - 60; n++) deeper = { left: deeper, right: shared };
    expect(nestingProblem(deeper)).toBe(`its arrays and objects nest deeper than ${MAX_JSON_DEPTH} levels`);
  });
});
