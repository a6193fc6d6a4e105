/**
 * `petstore-verify --spec FILE`, the real commands from the outside: the verifier given the variant
 * of the interface (an optional `tag`, `limit` capped at 50, `deletePet`) passes the mock serving the
 * same variant, with every suite, and fails the mock of the original spec with failures that name the
 * operation it lacks, the bound it breaks and the field it drops; the bundled spec still passes the
 * bundled mock with no false alarm.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { VerificationReport } from '../../src/contracts/runner.js';
import { type RunningMock, runCli, startMockCli } from '../support/cli.js';
import { nodeAt, VARIANT_LIMIT_MAXIMUM, variantSpec, writeVariantSpec } from '../support/variant-spec.js';

const KEY = 'petstore-dev-key';
let dir: string;
let variant: string;
let variantMock: RunningMock;
let originalMock: RunningMock;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'petstore-verify-spec-'));
  variant = await writeVariantSpec(dir);
  [variantMock, originalMock] = await Promise.all([startMockCli(['--port', '0', '--spec', variant, '--quiet']), startMockCli(['--port', '0', '--quiet'])]);
});
afterAll(async () => {
  await Promise.all([variantMock?.stop(), originalMock?.stop()]);
  await rm(dir, { recursive: true, force: true });
});

/** Runs petstore-verify against `url` with `args`, its JSON report read from stdout. */
async function verifyCli(url: string, args: readonly string[]): Promise<{ code: number | null; report: VerificationReport; stderr: string }> {
  const result = await runCli('petstore-verify', ['--base-url', url, '--reporter', 'json', ...args], { PETSTORE_API_KEY: KEY });
  return { code: result.code, report: JSON.parse(result.stdout) as VerificationReport, stderr: result.stderr };
}

function outcomes(report: VerificationReport, prefix: string): Record<string, string> {
  return Object.fromEntries(report.results.filter((result) => result.id.startsWith(prefix)).map((result) => [result.id, result.outcome]));
}

/** Every finding's message of the report's failures, one per line. */
function failureText(report: VerificationReport): string {
  return report.results
    .filter((result) => result.outcome === 'fail')
    .flatMap((result) => result.findings.map((finding) => `${result.id}: ${finding.message}`))
    .join('\n');
}

describe('petstore-verify --spec', () => {
  it('passes petstore-mock --spec of the same variant with every suite, its delete and its new field checked with no code of their own', async () => {
    const { code, report, stderr } = await verifyCli(variantMock.url, ['--spec', variant]);
    expect(failureText(report)).toBe('');
    expect(report.counts).toMatchObject({ failed: 0, errors: 0, skipped: 0, warnings: 0 });
    expect(code).toBe(0);
    expect(outcomes(report, 'deletePet.')).toEqual({ 'deletePet.removes': 'pass', 'deletePet.absent': 'pass', 'deletePet.not-an-id': 'pass' });
    expect(outcomes(report, 'auth.deletePet')).toEqual({ 'auth.deletePet.refused': 'pass' });
    // The pacts were replayed against the variant too, and the every-field create sent a tag.
    expect(report.results.some((result) => result.suite === 'pact' && result.outcome === 'pass')).toBe(true);
    expect(outcomes(report, 'createPet.every-field')).toEqual({ 'createPet.every-field': 'pass' });
    expect(stderr).toContain('Verifying against');
  });

  it('fails the mock of the original spec, naming the missing deletePet, the limit past 50 and the dropped tag', async () => {
    // The variant under a name that holds the key: the start line hides it, as every line of a run (red team 9, #2).
    const named = join(dir, `${KEY}.yaml`);
    await writeFile(named, await readFile(variant));
    const { code, report, stderr } = await verifyCli(originalMock.url, ['--spec', named, '--suite', 'spec']);
    expect(stderr).toContain(`Verifying against ${join(dir, '$PETSTORE_API_KEY.yaml')}`);
    expect(stderr).not.toContain(KEY);
    expect(code).toBe(1);
    const text = failureText(report);
    expect(text).toMatch(/deletePet\.removes: deletePet answered 405, a status the spec does not document for it/);
    expect(text).toMatch(new RegExp(`listPets with limit=${VARIANT_LIMIT_MAXIMUM + 1} answered ${VARIANT_LIMIT_MAXIMUM + 1} pets`));
    expect(text).toMatch(/run\.fields: createPet acknowledged a valid body with tag "[^"]+" but its item has no tag/);
  });

  it('sends no DELETE under --read-only: the delete checks are skipped, and say why', async () => {
    const { code, report } = await verifyCli(variantMock.url, ['--spec', variant, '--suite', 'spec', '--read-only']);
    expect(code).toBe(0);
    expect(report.writes).toBe(0);
    const skipped = report.results.filter((result) => result.id.includes('deletePet'));
    expect(skipped.map((result) => [result.outcome, result.reason])).toEqual(skipped.map(() => ['skip', '--read-only: this check needs to create pets']));
    expect(skipped).toHaveLength(4);
  });

  it('keeps the bundled spec by default: the bundled mock passes with no false alarm, and no delete is checked', async () => {
    const { code, report } = await verifyCli(originalMock.url, []);
    expect(failureText(report)).toBe('');
    expect(report.counts).toMatchObject({ failed: 0, errors: 0, skipped: 0, warnings: 0 });
    expect(code).toBe(0);
    expect(report.results.filter((result) => result.id.includes('delete'))).toEqual([]);
  });

  it("runs docs/verifier.md's --spec example as written: the variant's mock, then the verifier against it, exit 0", async () => {
    const page = await readFile(new URL('../../docs/verifier.md', import.meta.url), 'utf8');
    const block = /```console\n([\s\S]*?)```/.exec(page.slice(page.indexOf('## A variant of the interface')))?.[1] ?? '';
    const [mockLine = [], verifyLine = []] = block
      .split('\n')
      .filter((line) => line.startsWith('$ '))
      .map((line) => line.slice(2).replace(/ &$/, '').split(' '));
    expect([mockLine[0], verifyLine[0]]).toEqual(['petstore-mock', 'petstore-verify']);
    // The file at the path the example names (under a folder of the test's own), the mock on a free port.
    const named = verifyLine[verifyLine.indexOf('--spec') + 1] ?? '';
    const file = join(dir, named);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, await readFile(variant));
    const mock = await startMockCli(mockLine.slice(1).map((word) => (word === named ? file : word === '4010' ? '0' : word)));
    try {
      const args = verifyLine.slice(1).map((word) => (word === named ? file : /^http:\/\/127\.0\.0\.1:4010\/v1$/.test(word) ? mock.url : word));
      const result = await runCli('petstore-verify', args);
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(result.stdout).toContain('The deployment keeps the contract.');
    } finally {
      await mock.stop();
    }
  });

  it('follows a variant that renames its operations: the checks of each kind are named from the spec, and every suite passes the mock serving it', async () => {
    const doc = variantSpec();
    const renames = [
      ['/pets', 'get', 'listAnimals'],
      ['/pets', 'post', 'addAnimal'],
      ['/pets/{petId}', 'get', 'showAnimal'],
    ] as const;
    for (const [path, method, operationId] of renames) nodeAt(doc, 'paths', path, method).operationId = operationId;
    nodeAt(doc, 'paths', '/pets/{petId}', 'get')['x-replacement'] = 'listAnimals';
    const renamed = join(dir, 'renamed.yaml');
    await writeFile(renamed, stringify(doc));
    const mock = await startMockCli(['--port', '0', '--spec', renamed, '--quiet']);
    try {
      const { code, report } = await verifyCli(mock.url, ['--spec', renamed, '--fuzz-runs', '10', '--seed', '1']);
      expect(failureText(report)).toBe('');
      expect(code).toBe(0);
      const ids = report.results.map((result) => result.id);
      for (const id of ['listAnimals.limit', 'addAnimal.echo', 'showAnimal.existing', 'auth.listAnimals.accepted']) expect(ids).toContain(id);
      expect(ids.filter((id) => /listPets|createPet|getPet/.test(id))).toEqual([]);
      // The other suites ran too (a busy machine may leave the fuzz suite's sequences past the deadline, which is a skip, not a failure).
      for (const suite of ['pact', 'fuzz'])
        expect(
          report.results.some((result) => result.suite === suite),
          suite,
        ).toBe(true);
      expect(report.results.map((result) => result.title).join('\n')).not.toMatch(/listPets|createPet|getPet/);
    } finally {
      await mock.stop();
    }
  });

  it('refuses a spec it cannot verify against before the first request, naming the file and what to fix (exit 2)', async () => {
    const doc = variantSpec();
    nodeAt(doc, 'paths', '/pets/{petId}').post = { operationId: 'adoptPet', responses: { '200': { description: 'adopted' } } };
    const odd = join(dir, 'odd.yaml');
    await writeFile(odd, stringify(doc));
    for (const [file, said] of [
      [odd, /--spec \S+odd\.yaml: POST \/pets\/\{petId\} \(adoptPet\) is of no kind .*\. Fix the spec, or verify against the bundled one without --spec\./],
      [join(dir, 'none.yaml'), /--spec \S+none\.yaml: ENOENT: no such file or directory/],
    ] as const) {
      const result = await runCli('petstore-verify', ['--base-url', 'http://127.0.0.1:9/v1', '--spec', file, '--suite', 'spec'], { PETSTORE_API_KEY: KEY });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(said);
    }
  });
});
