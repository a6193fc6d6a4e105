/**
 * The writes a run's pacts drive on a deployment are bounded (red team 8, #10): one interaction naming
 * `a pet exists` 3,000 times made 3,000 POSTs on the deployment in 125 s, and passed. A provider state
 * is a fact, set up once per interaction however often it is named, and the Pact suite sends at most
 * `PACT_WRITES` writes: pacts that may need more are refused at start, before the run's first request.
 * Each through the real CLIs: petstore-verify against a petstore-mock process, counted in its journal.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACT_FILE, STATES } from '../../src/contracts/pact/names.js';
import { pactWriteBudget } from '../../src/contracts/pact/pact-suite.js';
import { BUNDLED_PACTS, type LoadedPact, type PactDocument, type PactInteraction } from '../../src/contracts/pact/pacts.js';
import { PACT_WRITES } from '../../src/contracts/run-bounds.js';
import { type RunningMock, runCli, startMockCli } from '../support/cli.js';

const KEY = 'PactWritesKey-20261128';
const folder = mkdtempSync(join(tmpdir(), 'petstore-verify-pact-writes-'));
const bundledFile = join(BUNDLED_PACTS, PACT_FILE);
const bundled = JSON.parse(readFileSync(bundledFile, 'utf8')) as PactDocument;
/** The bundled interaction that reads the pet its state `a pet exists` creates. */
const readsCreatedPet = bundled.interactions.find((interaction) => interaction.providerStates?.some((state) => state.name === STATES.petExists));

function pactFile(name: string, interactions: readonly PactInteraction[]): LoadedPact {
  const source = join(folder, name);
  const pact = { ...bundled, consumer: { name }, interactions };
  writeFileSync(source, JSON.stringify(pact));
  return { source, pact };
}

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMockCli(['--port', '0', '--quiet', '--api-key', KEY, '--journal-size', '10000']);
});
afterAll(() => mock.stop());

/** The requests the mock's journal holds, of one method or all. */
async function journal(method?: string): Promise<number> {
  const answer = await fetch(`${new URL(mock.url).origin}/__mock/requests${method ? `?method=${method}` : ''}`, {
    headers: { authorization: `Bearer ${KEY}` },
  });
  return ((await answer.json()) as { entries: unknown[] }).entries.length;
}

async function reset(): Promise<void> {
  await fetch(`${new URL(mock.url).origin}/__mock/reset`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` } });
}

function verifyCli(args: readonly string[]) {
  return runCli('petstore-verify', ['--base-url', mock.url, '--suite', 'pact', ...args], { PETSTORE_API_KEY: KEY });
}

describe("a pact's provider states", () => {
  it('named 3,000 times each in one interaction are each set up once: a pet created, not 3,000, and the budget bounds the rest', async () => {
    expect(readsCreatedPet).toBeDefined();
    const states = [...Array.from({ length: 3_000 }, () => ({ name: STATES.petExists })), ...Array.from({ length: 3_000 }, () => ({ name: STATES.petsExist }))];
    const many = pactFile('many-states', [{ ...(readsCreatedPet as PactInteraction), description: 'many states', providerStates: states }]);
    await reset();
    const output = join(folder, 'many-states.json');
    const run = await verifyCli(['--pact', many.source, '--reporter', 'json', '--output', output]);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(readFileSync(output, 'utf8')) as { posts: number; results: { id: string; title: string; outcome: string }[] };
    const result = report.results.find((candidate) => candidate.id === 'pact.many-states.many-states');
    expect(result).toMatchObject({ outcome: 'pass', title: `many-states: many states (given ${STATES.petExists}, ${STATES.petsExist})` });
    // The deployment got what the report counts, within the suite's budget: the bundled pact's writes and one pet of this one's.
    const posts = await journal('POST');
    expect(posts).toBe(report.posts);
    expect(posts).toBeLessThanOrEqual(pactWriteBudget([{ source: bundledFile, pact: bundled }, many]));
    expect(posts).toBeLessThan(20);
  }, 120_000);

  it(`that may need more than ${PACT_WRITES} writes in all are refused at start, exit 2, with a sentence naming the bound and what to do; nothing is sent`, async () => {
    const interactions = Array.from({ length: PACT_WRITES }, (_, n) => ({ ...(readsCreatedPet as PactInteraction), description: `reads pet ${n}` }));
    const heavy = pactFile('heavy', interactions);
    await reset();
    const before = await journal();
    const run = await verifyCli(['--pact', heavy.source]);
    expect(run.code).toBe(2);
    expect((run.stdout + run.stderr).replace(/\s+/g, ' ')).toContain(
      `the pacts to verify (--pact, with the bundled ones) may need more than ${PACT_WRITES} writes on the deployment, the most a run's Pact suite sends, past ${heavy.source}`,
    );
    expect(run.stdout + run.stderr).toContain('nothing was sent. Give fewer pacts');
    expect(await journal()).toBe(before);
  }, 60_000);

  it.each([
    ['"providerStates": [null]', '"providerStates" that are not a list of objects each with a "name"', { providerStates: [null] }],
    ['"providerStates" a text', '"providerStates" that are not a list of objects each with a "name"', { providerStates: STATES.petExists }],
    ['no request', 'no HTTP request (a "request" with a "method" and a "path")', { request: undefined }],
    ['a number for description', 'no "description" text', { description: 7 }],
  ])(
    'of an interaction with %s: refused at start, exit 2, with a sentence, never a stack trace (the verifier reads them before the Pact Verifier)',
    async (_, said, change) => {
      const odd = pactFile('odd', [{ ...(readsCreatedPet as PactInteraction), ...(change as object) }]);
      const run = await verifyCli(['--pact', odd.source]);
      expect(run.code).toBe(2);
      expect(run.stdout + run.stderr).toContain(`${odd.source}: interaction 1 has ${said}, which petstore-verify reads before it replays a pact`);
      expect(run.stderr).not.toMatch(/\bat .*\.js:\d+/);
    },
  );

  it('that would pass the bound are replayed with --read-only, which sends no write: their interactions are skipped, not refused', async () => {
    const heavy = pactFile(
      'heavy-read-only',
      Array.from({ length: PACT_WRITES }, (_, n) => ({ ...(readsCreatedPet as PactInteraction), description: `reads ${n}` })),
    );
    await reset();
    const output = join(folder, 'heavy-read-only.json');
    const run = await verifyCli(['--pact', heavy.source, '--read-only', '--reporter', 'json', '--output', output]);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(readFileSync(output, 'utf8')) as { posts: number; results: { id: string; outcome: string; reason?: string }[] };
    const heavyResults = report.results.filter((result) => result.id.startsWith('pact.heavy-read-only.'));
    expect(heavyResults).toHaveLength(PACT_WRITES);
    expect(
      heavyResults.every((result) => result.outcome === 'skip' && result.reason === `--read-only: the state "${STATES.petExists}" may need a pet created`),
    ).toBe(true);
    expect(await journal('POST')).toBe(0);
  }, 60_000);
});
