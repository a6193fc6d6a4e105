/**
 * Learn, adopt, compare: for each correct deployment that chooses differently where the interface
 * leaves room, petstore-verify learns its profile, the mock adopts it, and a corpus of requests
 * replayed against both gets the same answers on every open choice. Without the profile, the same
 * replay lists exactly the choices where the two differ.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileOfRun } from '../../src/contracts/learn-profile.js';
import { verify } from '../../src/contracts/runner.js';
import { type MockServer, startMockServer } from '../../src/mock/hosts/node-server.js';
import type { Profile } from '../../src/profile/profile.js';
import { type Choices, correctDeployment, type Deployment, OTHER_CHOICES, serve } from '../support/deployments.js';
import { type ChoiceName, corpus, disagreements, send } from '../support/replay.js';

const KEY = 'petstore-dev-key';

const ALTERNATIVES: readonly {
  name: string;
  choices: Partial<Choices>;
  /** In front of the deployment: a `limit` that is not an integer answered 400 before it is read. */
  refuseNonIntegerLimit?: boolean;
  learned: Partial<Profile>;
  differs: readonly ChoiceName[];
}[] = [
  {
    name: 'newest first, no default status, categories 1..10, limit clamped, empty page for an unknown status, 404 for a non-integer id, charset, numeric codes',
    choices: OTHER_CHOICES,
    learned: {
      listOrder: 'id-desc',
      defaultStatus: 'omitted',
      categories: { known: ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'] },
      limitOutOfRange: 'clamp',
      unknownStatus: 'empty',
      nonIntegerPetId: 404,
      charset: 'utf-8',
      idScheme: 'increasing',
      errorCodes: { bad_request: 'E400', malformed_json: 'E400', unauthorized: 'E401', not_found: 'E404' },
    },
    differs: ['limitOutOfRange', 'limitNotInteger', 'unknownStatus', 'listOrder', 'nonIntegerPetId', 'defaultStatus', 'categories', 'errorCodes', 'charset'],
  },
  {
    name: 'ids from 2^31, ordered by status, default status sold',
    choices: { ids: 'from-2^31', order: 'status', defaultStatus: 'sold' },
    learned: {
      listOrder: 'status',
      defaultStatus: 'sold',
      categories: 'any',
      limitOutOfRange: 'refuse',
      unknownStatus: 'refuse',
      nonIntegerPetId: 400,
      charset: 'none',
    },
    differs: ['listOrder', 'defaultStatus'],
  },
  {
    name: 'ordered by name, default status pending, behind /api/v1, upper-case codes',
    choices: { order: 'name', defaultStatus: 'pending', basePath: '/api/v1', errorCodes: 'upper' },
    learned: {
      listOrder: 'name',
      defaultStatus: 'pending',
      errorCodes: { bad_request: 'BAD_REQUEST', malformed_json: 'MALFORMED_JSON', unauthorized: 'UNAUTHORIZED', not_found: 'NOT_FOUND' },
    },
    differs: ['listOrder', 'defaultStatus', 'errorCodes'],
  },
  {
    name: 'only categories 7 and 9, three pets, limit clamped',
    choices: { categories: [7n, 9n], count: 3, limitOutOfRange: 'clamp' },
    learned: { categories: { known: ['7', '9'] }, limitOutOfRange: 'clamp', limitNotInteger: 'ignore' },
    differs: ['limitOutOfRange', 'limitNotInteger', 'categories'],
  },
  {
    name: 'ids from 2^53 + 1, 404 for a non-integer id, empty page for an unknown status',
    choices: { ids: 'beyond-2^53', nonIntegerPetId: 404, unknownStatus: 'empty' },
    learned: { idsBeyondDouble: true, idScheme: 'increasing', nonIntegerPetId: 404, unknownStatus: 'empty' },
    differs: ['nonIntegerPetId', 'unknownStatus'],
  },
  {
    name: 'random int64 ids, status left out when not sent',
    choices: { ids: 'random', defaultStatus: 'omitted' },
    learned: { idScheme: 'random', idsBeyondDouble: true, listOrder: 'id-asc', defaultStatus: 'omitted' },
    differs: ['defaultStatus'],
  },
  {
    name: 'an integer limit out of range clamped, a limit that is not an integer refused (as typed frameworks do)',
    choices: { limitOutOfRange: 'clamp' },
    refuseNonIntegerLimit: true,
    learned: { limitOutOfRange: 'clamp', limitNotInteger: 'refuse' },
    differs: ['limitOutOfRange'],
  },
  {
    name: "the mock's own choices",
    choices: {},
    learned: { listOrder: 'id-asc', defaultStatus: 'available', categories: 'any', limitOutOfRange: 'refuse', unknownStatus: 'refuse', nonIntegerPetId: 400 },
    differs: [],
  },
];

/** `inner` behind a front that refuses a `limit` that is not an integer with 400, and forwards the rest. */
async function refusingNonIntegerLimits(inner: Deployment): Promise<Deployment> {
  const front = await serve(async (request) => {
    const url = new URL(request.url);
    const limit = url.searchParams.get('limit');
    if (limit !== null && !/^-?\d+$/.test(limit))
      return new Response(JSON.stringify({ code: 'bad_request', message: 'limit must be an integer', status: 400 }), {
        status: 400,
        headers: { 'content-type': 'application/json' },
      });
    const forwarded = await fetch(`${inner.url}${url.pathname.slice('/v1'.length)}${url.search}`, {
      method: request.method,
      headers: request.headers,
      // The bytes as sent: text() would drop a byte order mark and leave the forwarded Content-Length wrong.
      ...(request.method === 'POST' ? { body: await request.arrayBuffer() } : {}),
    });
    return new Response(await forwarded.arrayBuffer(), { status: forwarded.status, headers: forwarded.headers });
  });
  return { url: front.url, close: async () => Promise.all([front.close(), inner.close()]).then(() => undefined) };
}

/** Replays the corpus against both, and returns each disagreement as `choice: request: what differs`. */
async function replay(deployment: string, mock: string, category: string): Promise<{ choice: ChoiceName; line: string }[]> {
  const found: { choice: ChoiceName; line: string }[] = [];
  for (const probe of corpus(category)) {
    const [theirs, ours] = [await send(deployment, KEY, probe), await send(mock, KEY, probe)];
    for (const { choice, what } of disagreements(probe, theirs, ours)) found.push({ choice, line: `${choice}: ${probe.method} ${probe.path}: ${what}` });
  }
  return found;
}

function acceptedCategory(profile: Profile): string {
  return typeof profile.categories === 'object' ? (profile.categories.known[0] ?? '1') : '1';
}

describe('a mock with the profile learned from a deployment answers as the deployment does', () => {
  for (const { name, choices, refuseNonIntegerLimit, learned, differs } of ALTERNATIVES) {
    describe(name, () => {
      let deployment: Deployment;
      let profile: Profile;
      let mimic: MockServer;
      let plain: MockServer;
      const mismatches: string[] = [];
      beforeAll(async () => {
        deployment = refuseNonIntegerLimit ? await refusingNonIntegerLimits(await correctDeployment(choices)) : await correctDeployment(choices);
        const report = await verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'spec' });
        expect(report.exitCode, JSON.stringify(report.results.filter((result) => result.outcome !== 'pass' && result.outcome !== 'skip'))).toBe(0);
        profile = profileOfRun(report.results);
        mimic = await startMockServer({ profile, selfCheck: (mismatch) => mismatches.push(mismatch) });
        plain = await startMockServer();
      });
      afterAll(async () => {
        await Promise.all([deployment?.close(), mimic?.close(), plain?.close()]);
      });

      it('learns its choices', () => {
        expect(profile).toMatchObject(learned);
      });

      it('agrees with the mock under the profile on every open choice, and every answer passes the self-check', async () => {
        expect((await replay(deployment.url, mimic.url, acceptedCategory(profile))).map(({ line }) => line)).toEqual([]);
        expect(mismatches).toEqual([]);
      });

      it('without the profile, disagrees exactly on the choices it makes differently', async () => {
        const found = await replay(deployment.url, plain.url, acceptedCategory(profile));
        expect([...new Set(found.map(({ choice }) => choice))].sort(), found.map(({ line }) => line).join('\n')).toEqual([...differs].sort());
      });
    });
  }
});
