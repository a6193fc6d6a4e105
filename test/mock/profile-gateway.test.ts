/**
 * A gateway in front of a correct deployment clamps `limit` above its maximum (a `min(limit, maximum)`)
 * but refuses one below its minimum, and orders the list by name by code units (`Pet Z` before `pet a`, as a binary
 * collation does): petstore-verify learns both, the mock adopts
 * them, and the proxy stops calling the clamp a drift once it holds the profile learned.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileOfRun } from '../../src/contracts/learn-profile.js';
import { verify } from '../../src/contracts/runner.js';
import { type MockServer, startMockServer } from '../../src/mock/hosts/node-server.js';
import { startProxyServer } from '../../src/mock/proxy/proxy-server.js';
import { inOrder, type Profile, profileDocument, readProfile } from '../../src/profile/profile.js';
import { correctDeployment, type Deployment } from '../support/deployments.js';
import { FULL_PAGE, LIMIT, MORE_THAN_A_PAGE } from '../support/page-size.js';

const KEY = 'petstore-dev-key';
const AUTH = { authorization: `Bearer ${KEY}` };
/** A limit far above the maximum, as docs/profiles.md's example asks for. */
const FAR_ABOVE = LIMIT.maximum * 5;
/** What a client of the gateway sends that its choices decide: both sides of the limit's range, and full pages. */
const REQUESTS = [
  `/pets?limit=${LIMIT.maximum + 1}`,
  `/pets?limit=${FAR_ABOVE}`,
  `/pets?limit=${LIMIT.minimum - 1}`,
  '/pets?limit=-1',
  `/pets?${FULL_PAGE}`,
  '/pets',
];

async function page(base: string, path: string): Promise<{ status: number; pets: { id: number; name: string }[] }> {
  const response = await fetch(`${base}${path}`, { headers: AUTH });
  const body = (await response.json()) as unknown;
  return { status: response.status, pets: Array.isArray(body) ? (body as { id: number; name: string }[]) : [] };
}

describe('a gateway that clamps limit above the maximum only and orders by name', () => {
  let gateway: Deployment;
  let profile: Profile;
  beforeAll(async () => {
    gateway = await correctDeployment({ limitOutOfRange: 'clamp-above', order: 'name', count: MORE_THAN_A_PAGE, mixedCaseNames: true });
    const report = await verify({ baseUrl: gateway.url, apiKey: KEY, suite: 'spec' });
    expect(report.exitCode, JSON.stringify(report.results.filter((result) => result.outcome === 'fail'))).toBe(0);
    profile = profileOfRun(report.results);
  });
  afterAll(() => gateway.close());

  it('is learned as clamping above the maximum, refusing below the minimum, and ordered by name, in a version-2 profile that reads back the same', () => {
    expect(profile).toMatchObject({ version: 2, limitAboveMaximum: 'clamp', limitBelowMinimum: 'refuse', listOrder: 'name' });
    expect(readProfile(JSON.parse(JSON.stringify(profileDocument(profile))))).toEqual(profile);
  });

  describe('the mock with that profile', () => {
    let mock: MockServer;
    beforeAll(async () => {
      mock = await startMockServer({ profile, count: MORE_THAN_A_PAGE });
    });
    afterAll(() => mock.close());

    it(`answers as the gateway does: ${LIMIT.maximum} pets above the maximum, 400 below the minimum, by name`, async () => {
      for (const path of REQUESTS) {
        const [theirs, ours] = [await page(gateway.url, path), await page(mock.url, path)];
        expect([path, ours.status, ours.pets.length]).toEqual([path, theirs.status, theirs.pets.length]);
      }
      expect((await page(mock.url, `/pets?limit=${FAR_ABOVE}`)).pets).toHaveLength(LIMIT.maximum);
      const { pets } = await page(mock.url, `/pets?${FULL_PAGE}`);
      expect(
        inOrder(
          'name',
          pets.map((pet) => ({ id: String(pet.id), name: pet.name })),
        ),
      ).toBe(true);
    });
  });

  it('the proxy reports the clamp and the order as drift without the profile, and no drift with it', async () => {
    const drifts = async (withProfile: boolean) => {
      const proxy = await startProxyServer({ upstream: gateway.url, upstreamKey: KEY, ...(withProfile ? { profile } : {}) });
      try {
        for (const path of REQUESTS) await fetch(`${proxy.url}${path}`, { headers: AUTH });
        return proxy.report().drift.kept.map((drift) => drift.message);
      } finally {
        await proxy.close();
      }
    };
    const without = await drifts(false);
    expect(
      without.some((message) => message.includes(`limit=${LIMIT.maximum + 1}: status: the deployment 200, the mock 400`)),
      without.join('\n'),
    ).toBe(true);
    expect(
      without.some((message) => /order/.test(message)),
      without.join('\n'),
    ).toBe(true);
    expect(await drifts(true)).toEqual([]);
  });

  it(`is the version-2 example of docs/profiles.md, which the mock runs: ${LIMIT.maximum} pets for limit=${FAR_ABOVE}, 400 for limit=${LIMIT.minimum - 1}`, async () => {
    const examples = [...(await readFile(new URL('../../docs/profiles.md', import.meta.url), 'utf8')).matchAll(/```json\n([\s\S]*?)```/g)];
    const written: unknown = JSON.parse(examples[1]?.[1] ?? '');
    // The choices the example names are the ones learned from the gateway.
    expect(profile).toMatchObject(written as object);
    const example = readProfile(written);
    const mock = await startMockServer({ profile: example, count: MORE_THAN_A_PAGE, selfCheck: (mismatch) => expect.fail(mismatch) });
    try {
      expect((await page(mock.url, `/pets?limit=${FAR_ABOVE}`)).pets).toHaveLength(LIMIT.maximum);
      expect((await page(mock.url, `/pets?limit=${LIMIT.minimum - 1}`)).status).toBe(400);
    } finally {
      await mock.close();
    }
  });
});
