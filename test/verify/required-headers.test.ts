/**
 * A response header the spec's header object marks `required` (OpenAPI 3.1) is owed on every response
 * it is documented on, whether or not the deployment sent it elsewhere: judged from the header object,
 * with no code per header. The bundled spec documents `Location` on createPet's 201 without `required`
 * (the interface names no header), so a deployment without it passes there; a variant that marks it
 * required fails the same deployment, naming the header, the status and the first response.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { VerificationReport } from '../../src/contracts/runner.js';
import { runCli } from '../support/cli.js';
import { type CorrectDeployment, correctDeployment } from '../support/deployments.js';

const KEY = 'petstore-dev-key';
let dir: string;
let required: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'petstore-verify-required-'));
  const spec = parse(await readFile('spec/openapi.yaml', 'utf8')) as {
    paths: Record<string, Record<string, { responses: Record<string, { headers: Record<string, Record<string, unknown>> }> }>>;
  };
  const location = spec.paths['/pets']?.post?.responses['201']?.headers.Location;
  if (location === undefined) throw new Error('the bundled spec no longer documents Location on the 201 of POST /pets');
  location.required = true;
  required = join(dir, 'location-required.yaml');
  await writeFile(required, stringify(spec));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function verifyCli(url: string, args: readonly string[]): Promise<{ code: number | null; report: VerificationReport }> {
  const result = await runCli('petstore-verify', ['--base-url', url, '--suite', 'spec', '--reporter', 'json', ...args], { PETSTORE_API_KEY: KEY });
  return { code: result.code, report: JSON.parse(result.stdout) as VerificationReport };
}

const failures = (report: VerificationReport) =>
  report.results.filter((result) => result.outcome === 'fail').map((result) => [result.id, result.findings.map((finding) => finding.message)]);

describe.concurrent('a header the spec marks required', () => {
  // Under the bundled spec both pass: test/verify/principles.test.ts ('no Location on its 201s') and alternatives.test.ts.
  for (const omitLocation of [false, true])
    it(`${omitLocation ? 'fails' : 'passes'} a deployment ${omitLocation ? 'without' : 'with'} Location on its 201s when the spec's header object marks it required`, async () => {
      const deployment: CorrectDeployment = await correctDeployment({ omitLocation });
      try {
        const strict = await verifyCli(deployment.url, ['--spec', required]);
        if (!omitLocation) {
          expect(failures(strict.report)).toEqual([]);
          expect(strict.code).toBe(0);
          return;
        }
        expect(strict.code).toBe(1);
        expect(failures(strict.report)).toEqual([
          [
            'run.headers',
            [
              expect.stringMatching(
                /^createPet answered 201 without Location \(\d+ responses, the first POST http:\/\/127\.0\.0\.1:\d+\/v1\/pets\), which the spec's header object marks required on that response: send it on every 201 answer of createPet$/,
              ),
            ],
          ],
        ]);
      } finally {
        await deployment.close();
      }
    });
});
