/**
 * The e2e project's setup file. Its files share their workers (`isolate: false` in vitest.config.ts):
 * the modules one file loaded, the globals and the environment it left are those of the next file in
 * the same worker. So each file puts back what it changes, and this fails the file that does not,
 * naming what it left: fake timers, a global `fetch` still replaced (an MSW server left listening), the
 * verifier's `waits.schedule` (src/contracts/pace.ts) still swapped, or a variable of the environment
 * set, changed or removed. It runs again before each file (vitest runs setup files per file), so what it
 * compares with is what that file found.
 */
import { afterAll, expect, vi } from 'vitest';
import { waits } from '../../src/contracts/pace.js';

const env = { ...process.env };
const fetch = globalThis.fetch;
const schedule = waits.schedule;

/** The variables of the environment this file set, changed or removed. */
function changedEnv(): string[] {
  const names = new Set([...Object.keys(env), ...Object.keys(process.env)]);
  return [...names].filter((name) => env[name] !== process.env[name]).sort();
}

afterAll(() => {
  const left: string[] = [];
  if (vi.isFakeTimers()) left.push('fake timers on: call vi.useRealTimers() after the tests that use them');
  if (globalThis.fetch !== fetch) left.push('the global fetch replaced: close every MSW server the file started');
  if (waits.schedule !== schedule) left.push("src/contracts/pace.ts's waits.schedule swapped: put it back in afterAll");
  const changed = changedEnv();
  if (changed.length > 0) left.push(`the environment's ${changed.join(', ')} changed: vi.unstubAllEnvs(), or put them back`);
  // Put back what can be, so that the next file in this worker runs as it would alone.
  vi.useRealTimers();
  waits.schedule = schedule;
  for (const name of changed) {
    if (env[name] === undefined) delete process.env[name];
    else process.env[name] = env[name];
  }
  expect(left, 'this file left behind what the next file in its worker would find').toEqual([]);
});
