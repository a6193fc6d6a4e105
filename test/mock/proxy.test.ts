/**
 * The validating proxy over real HTTP: violations of a faulty deployment are reported; the choices of
 * a correct deployment that chooses otherwise are drift until its learned profile is loaded; the key
 * reaches only the deployment and is never printed.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileOfRun } from '../../src/contracts/learn-profile.js';
import { verify } from '../../src/contracts/runner.js';
import { type DriftReport, type ProxyServer, startProxyServer } from '../../src/mock/proxy/proxy-server.js';
import type { Profile } from '../../src/profile/profile.js';
import {
  type Choices,
  type CorrectDeployment,
  correctDeployment,
  type Deployment,
  FAULTS,
  faultyDeployment,
  OTHER_CHOICES,
  serve,
} from '../support/deployments.js';
import { type ChoiceName, corpus, send } from '../support/replay.js';

const KEY = 'petstore-dev-key';
/** The mock's own default key: what a client of a proxy holding an upstream key sends. */
const AUTH = { authorization: `Bearer ${KEY}` };

/** The open choice a drift shows: the Error code, the charset, the new pet's status, the order, or, for a status, the choice of the probe that drifted. */
function choiceOf(drift: { aspect: string; message: string }, probe: ChoiceName): ChoiceName | undefined {
  if (drift.aspect === 'code') return 'errorCodes';
  if (drift.aspect === 'header') return /Content-Type/.test(drift.message) ? 'charset' : undefined;
  if (drift.aspect === 'order') return 'listOrder';
  if (drift.aspect === 'field' || drift.aspect === 'shape') return 'defaultStatus';
  return probe;
}

/** Replays the corpus through the proxy, one probe at a time, and returns the choices its drift shows. */
async function replayThrough(proxy: ProxyServer, category = '1'): Promise<(ChoiceName | undefined)[]> {
  const shown: (ChoiceName | undefined)[] = [];
  for (const probe of corpus(category)) {
    const before = proxy.report().drift.count;
    await send(proxy.url, KEY, probe);
    shown.push(
      ...proxy
        .report()
        .drift.kept.slice(before)
        .map((drift) => choiceOf(drift, probe.choice)),
    );
  }
  return shown;
}

describe('petstore-mock --proxy over a faulty deployment', () => {
  for (const fault of ['list wrapped in an object', 'errors as text/plain', 'Error status differs from the HTTP status'] as const) {
    it(`reports its violations (${fault}) in X-Contract-Violation, the log and GET /__mock/drift`, async () => {
      const deployment = await faultyDeployment(FAULTS[fault] ?? ((request, mock) => mock(request)));
      const lines: string[] = [];
      const proxy = await startProxyServer({ upstream: deployment.url, onProblem: (line) => lines.push(line) });
      try {
        const list = await fetch(`${proxy.url}/pets`, { headers: { authorization: `Bearer ${KEY}` } });
        const anonymous = await fetch(`${proxy.url}/pets/1`);
        const flagged = [list, anonymous].filter((response) => response.headers.has('x-contract-violation'));
        expect(flagged.length).toBeGreaterThan(0);
        const report = (await (await fetch(`${proxy.url.replace(/\/v1$/, '')}/__mock/drift`)).json()) as {
          violations: { count: number; kept: { side: string }[] };
        };
        expect(report.violations.kept.filter((violation) => violation.side === 'response').length).toBeGreaterThan(0);
        expect(lines.some((line) => /^petstore-mock: contract violation \(response\): GET \/v1\/pets/.test(line) && !line.includes('\n'))).toBe(true);
      } finally {
        await Promise.all([proxy.close(), deployment.close()]);
      }
    });
  }
});

describe('petstore-mock --proxy over a correct deployment that chooses otherwise', () => {
  const cases: readonly { name: string; choices: Partial<Choices>; differs: readonly ChoiceName[] }[] = [
    {
      name: 'newest first, no default status, categories 1..10, clamp, empty page, 404, charset, numeric codes',
      choices: { ...OTHER_CHOICES, extraFields: false },
      differs: ['limitOutOfRange', 'limitNotInteger', 'unknownStatus', 'listOrder', 'nonIntegerPetId', 'defaultStatus', 'categories', 'errorCodes', 'charset'],
    },
    {
      name: 'ordered by status, default status sold',
      choices: { ids: 'from-2^31', order: 'status', defaultStatus: 'sold' },
      differs: ['listOrder', 'defaultStatus'],
    },
  ];
  for (const { name, choices, differs } of cases) {
    describe(name, () => {
      let deployment: CorrectDeployment;
      let profile: Profile;
      beforeAll(async () => {
        deployment = await correctDeployment(choices);
        profile = profileOfRun((await verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'spec' })).results);
      });
      afterAll(() => deployment.close());

      it('without a profile, reports exactly its choices as drift, and no violation of its answers', async () => {
        const proxy = await startProxyServer({ upstream: deployment.url });
        try {
          const shown = await replayThrough(proxy);
          const report = proxy.report();
          expect([...new Set(shown)].sort(), report.drift.kept.map((drift) => drift.message).join('\n')).toEqual([...differs].sort());
          expect(report.violations.kept.filter((violation) => violation.side === 'response')).toEqual([]);
        } finally {
          await proxy.close();
        }
      });

      it('with the profile learned from it, reports no drift', async () => {
        const proxy = await startProxyServer({ upstream: deployment.url, profile, upstreamKey: KEY });
        try {
          await replayThrough(proxy, typeof profile.categories === 'object' ? profile.categories.known[0] : '1');
          // A pet the deployment listed, then read through the proxy: mirrored, so the mock has it too.
          // The proxy holds the upstream key, so a client sends the mock's own (here the same default key).
          const listed = (await (await fetch(`${proxy.url}/pets?limit=1`, { headers: AUTH })).json()) as { id: number }[];
          expect((await fetch(`${proxy.url}/pets/${listed[0]?.id}`, { headers: AUTH })).status).toBe(200);
          expect(proxy.report().drift.kept.map((drift) => drift.message)).toEqual([]);
          expect(proxy.report().requests).toBeGreaterThan(corpus('1').length);
        } finally {
          await proxy.close();
        }
      });
    });
  }
});

describe('petstore-mock --proxy and the key', () => {
  let elsewhere: { url: string; seen: string[]; close(): Promise<void> };
  beforeAll(async () => {
    const seen: string[] = [];
    const server = createServer((request, response) => {
      seen.push(`${request.url} ${request.headers.authorization ?? '(no authorization)'}`);
      response.end('[]');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    elsewhere = {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      seen,
      close: () => new Promise((resolve) => server.close(() => resolve())),
    };
  });
  afterAll(() => elsewhere.close());

  it('never follows a redirect to another host, never leaves the deployment, and never prints the key', async () => {
    const secret = 'upstream-secret-key-0123456789';
    const received: string[] = [];
    const redirecting: Deployment = await serve(async (request) => {
      received.push(request.headers.get('authorization') ?? '');
      return new Response(null, { status: 307, headers: { location: `${elsewhere.url}/v1/pets` } });
    });
    const lines: string[] = [];
    const proxy = await startProxyServer({
      upstream: redirecting.url,
      upstreamKey: secret,
      onProblem: (line) => lines.push(line),
      onRequest: (line) => lines.push(line),
    });
    try {
      // The client holds the mock's key, so each request below passes the proxy's guard and only the deployment's origin stops it.
      const answered = await fetch(`${proxy.url}/pets`, { redirect: 'manual', headers: AUTH });
      expect(answered.status).toBe(307);
      expect(answered.headers.get('x-contract-violation')).toMatch(/307/);
      const origin = proxy.url.replace(/\/v1$/, '');
      for (const target of [`//${elsewhere.url.slice(7)}/v1/pets`, `/v1/..//${elsewhere.url.slice(7)}/pets`, '/v1/@evil.example/pets']) {
        await fetch(`${origin}${target}`, { redirect: 'manual', headers: AUTH }).catch(() => undefined);
      }
      expect(received.every((value) => value === `Bearer ${secret}`)).toBe(true);
      expect(elsewhere.seen).toEqual([]);
      const printed = [...lines, JSON.stringify(proxy.report())].join('\n');
      expect(printed).not.toContain(secret);
      expect(printed).not.toContain(Buffer.from(secret).toString('base64'));
    } finally {
      await Promise.all([proxy.close(), redirecting.close()]);
    }
  });

  it('never prints, keeps or relays a key a hostile deployment echoes back', async () => {
    const secret = 'upstream-secret-key-echoed-42';
    const clientKey = 'client-own-key-echoed-43';
    const echoing: Deployment = await serve(async (request) => {
      const sent = request.headers.get('authorization') ?? '';
      const token = sent.replace(/^Bearer /, '');
      return new Response(`you sent:\n${sent}\n${Buffer.from(token).toString('base64')}`, { status: 200, headers: { 'content-type': 'text/plain' } });
    });
    const lines: string[] = [];
    const withKey = await startProxyServer({ upstream: echoing.url, upstreamKey: secret, onProblem: (line) => lines.push(line) });
    const withClientKey = await startProxyServer({ upstream: echoing.url, onProblem: (line) => lines.push(line) });
    try {
      const relayed = await fetch(`${withKey.url}/pets`, { headers: AUTH });
      const seenByClient = `${await relayed.text()} ${JSON.stringify([...relayed.headers])}`;
      expect(seenByClient).toContain('you sent');
      expect(relayed.headers.get('x-contract-violation')).toBeTruthy();
      expect(seenByClient).not.toContain(secret);
      expect(seenByClient).not.toContain(Buffer.from(secret).toString('base64'));
      await fetch(`${withClientKey.url}/pets`, { headers: { authorization: `Bearer ${clientKey}` } });
      expect(lines.length).toBeGreaterThan(1);
      expect(lines.every((line) => !line.includes('\n'))).toBe(true);
      const printed = [...lines, JSON.stringify(withKey.report()), JSON.stringify(withClientKey.report())].join('\n');
      // The echo was there to leak: the messages quote it, redacted.
      expect(printed).toContain('***');
      for (const key of [secret, clientKey]) {
        expect(printed).not.toContain(key);
        expect(printed).not.toContain(Buffer.from(key).toString('base64'));
      }
    } finally {
      await Promise.all([withKey.close(), withClientKey.close(), echoing.close()]);
    }
  });

  it('keeps its drift and violations within 2 MiB each, each text an excerpt of 1,000 characters, however long the requests', async () => {
    // Every answer breaks the spec and drifts from the mock: each request adds violations and drifts that quote its 2 KB target,
    // cut to an excerpt of 1,000 characters. So the lists reach the bound as with a target of 16 KB (1.9 million characters of
    // answer either way, 912 of the 1,200 violations kept), for half the CPU.
    const drifting: Deployment = await serve(async () => Response.json({ id: 'x', name: 7, categoryId: 'y' }));
    const proxy = await startProxyServer({ upstream: drifting.url, upstreamKey: 'upstream-key-drift-0123' });
    try {
      const query = `q=${'a'.repeat(2_000)}`;
      for (let i = 0; i < 400; i++) await (await fetch(`${proxy.url}/pets/${i + 1}?${query}${i}`, { headers: AUTH })).text();
      const answer = await (await fetch(`${proxy.url.replace(/\/v1$/, '')}/__mock/drift`)).text();
      const report = JSON.parse(answer) as DriftReport;
      expect(report.violations.count).toBeGreaterThanOrEqual(400);
      expect(report.drift.count).toBeGreaterThanOrEqual(400);
      // Each list within KEPT_BYTES (2 MiB at 2 bytes a character): the answer within 2.2 million characters.
      expect(answer.length).toBeLessThan(2_200_000);
      const texts = [...report.violations.kept, ...report.drift.kept].flatMap((entry) => Object.values(entry));
      expect(Math.max(...texts.map((text) => String(text).length))).toBeLessThanOrEqual(1_000 + '… (2020 characters)'.length);
      expect(report.drift.kept.at(-1)?.request).toMatch(/^GET \/v1\/pets\/400\?q=a+… \(\d+ characters\)$/);
    } finally {
      await Promise.all([proxy.close(), drifting.close()]);
    }
  });

  it('forwards the client’s own Authorization when no upstream key is given, and keeps the admin endpoints local', async () => {
    const deployment = await correctDeployment({});
    const proxy = await startProxyServer({ upstream: deployment.url });
    try {
      expect((await fetch(`${proxy.url}/pets`)).status).toBe(401);
      expect((await fetch(`${proxy.url}/pets`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(200);
      const profile = await fetch(`${proxy.url.replace(/\/v1$/, '')}/__mock/profile`);
      expect(((await profile.json()) as { version: number }).version).toBe(1);
    } finally {
      await Promise.all([proxy.close(), deployment.close()]);
    }
  });
});
