/** docs/verifier-checks.md says what the verifier does: its check table and its example are tested here. */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { mergeObservations } from '../../src/contracts/checks/observations.js';
import { loadContract } from '../../src/contracts/contract.js';
import { runModelChecks } from '../../src/contracts/deployment/model-phase.js';
import { specChecks, verify } from '../../src/contracts/runner.js';
import { startMockServer } from '../../src/mock/hosts/node-server.js';

const page = await readFile(new URL('../../docs/verifier-checks.md', import.meta.url), 'utf8');

/** Arrays compared as sets: checks run in parallel, so the order in which values are first seen varies. */
function sorted(value: unknown): unknown {
  return Array.isArray(value)
    ? value.map(String).sort()
    : typeof value === 'object' && value !== null
      ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, sorted(inner)]))
      : value;
}

describe('docs/verifier-checks.md', () => {
  it('lists every check of the spec suite and of the run-wide model, and no other', async () => {
    const documented = [...page.matchAll(/^\| `([a-zA-Z.-]+)` \|/gm)].map((match) => match[1]);
    const contract = await loadContract();
    expect(documented).toEqual([...specChecks(contract), ...runModelChecks(contract)].map((check) => check.id));
  });

  it("shows the observations a run against the project's mock records", async () => {
    const example = /```json\n([\s\S]*?)```/.exec(page)?.[1];
    expect(example).toBeDefined();
    const mock = await startMockServer({ port: 0 });
    try {
      const report = await verify({ baseUrl: mock.url, apiKey: 'petstore-dev-key', suite: 'spec' });
      expect(sorted(mergeObservations(report.results.map((result) => result.observations)))).toEqual(sorted(JSON.parse(example ?? '')));
    } finally {
      await mock.close();
    }
  });
});
