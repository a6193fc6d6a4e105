/**
 * The four fault classes of issue 26 against servers written on plain node:http, outside the mock:
 * each fault is caught (exit 1) by the check named for it, with a message naming the field or path
 * and the fix; the same server without the fault passes with no failure.
 */
import { describe, expect, it } from 'vitest';
import { verify } from '../../src/contracts/runner.js';
import { type PlainFault, plainDeployment } from '../support/plain-deployment.js';

const KEY = 'petstore-dev-key';

const CAUGHT: readonly { fault: PlainFault; caughtBy: string; message: RegExp }[] = [
  { fault: 'parseInt-id', caughtBy: 'getPet.petId-spellings', message: /answered the pet 1 for petId "1abc", a numeric prefix and text .*accept digits only/ },
  { fault: 'parseInt-id', caughtBy: 'getPet.petId-spellings', message: /answered the pet 1 for petId "1\.5", a fraction/ },
  { fault: 'auth-on-exact-paths', caughtBy: 'auth.listPets.path-variants', message: /GET \/V1\/pets without a credential answered 200 as the API/ },
  { fault: 'auth-on-exact-paths', caughtBy: 'auth.listPets.path-variants', message: /GET \/v1\/pets\/ without a credential answered 200/ },
  { fault: 'auth-on-exact-paths', caughtBy: 'auth.getPet.path-variants', message: /GET \/v1\/pets%2F1 without a credential answered 200/ },
  { fault: 'auth-on-exact-paths', caughtBy: 'auth.createPet.path-variants', message: /POST \/v1%2Fpets without a credential answered 201/ },
  {
    fault: 'python-types',
    caughtBy: 'createPet.types',
    message: /accepted categoryId true, a boolean .*stored categoryId 1: categoryId is an integer .*answer 400 naming categoryId/,
  },
  { fault: 'python-types', caughtBy: 'createPet.types', message: /accepted categoryId "1", a string of digits/ },
  { fault: 'python-types', caughtBy: 'createPet.types', message: /accepted name 42, a number, and stored name "42": name is a string/ },
];

describe.concurrent('petstore-verify against a plain node:http server', () => {
  for (const fault of [...new Set(CAUGHT.map((caught) => caught.fault))]) {
    it(`catches ${fault}, with the check and message named for each case`, async () => {
      const deployment = await plainDeployment(fault);
      try {
        const report = await verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'spec' });
        expect(report.exitCode).toBe(1);
        const failed = report.results.filter((result) => result.outcome === 'fail');
        for (const { caughtBy, message } of CAUGHT.filter((caught) => caught.fault === fault)) {
          const messages = failed.find((result) => result.id === caughtBy)?.findings.map((finding) => finding.message) ?? [];
          expect(
            messages.some((text) => message.test(text)),
            `${caughtBy}: ${messages.join('\n')}`,
          ).toBe(true);
        }
      } finally {
        await deployment.close();
      }
    });
  }

  it('passes the same server without a fault: no failure, no error', async () => {
    const deployment = await plainDeployment();
    try {
      const report = await verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'spec' });
      const problems = report.results.filter((result) => result.outcome === 'fail' || result.outcome === 'error');
      expect(problems.map((result) => [result.id, result.reason, result.findings.map((finding) => finding.message)])).toEqual([]);
      expect(report.exitCode).toBe(0);
    } finally {
      await deployment.close();
    }
  });
});
