/**
 * Request variation (src/contracts/checks/variants.ts): each deployment below mishandles one spelling
 * of a request that the HTTP and JSON standards or the spec's schemas decide, or crashes on a request
 * a client may send; each is caught (exit 1) by the variation check of the operation, naming the
 * variant. A deployment that makes the choices the standards leave open passes.
 */
import { createServer, request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { verify } from '../../src/contracts/runner.js';
import { type Deployment, type Fault, faultyDeployment, isCreate, json, listenOnLoopback } from '../support/deployments.js';

const KEY = 'petstore-dev-key';

/** The mock behind a server that dies, its connections cut, on the first request `kills` picks: a process that crashes. */
async function crashingOn(kills: (method: string, headers: Record<string, string | string[] | undefined>) => boolean): Promise<Deployment> {
  const inner = await faultyDeployment((request, mock) => mock(request), 50);
  const server = createServer((incoming, outgoing) => {
    if (kills(incoming.method ?? 'GET', incoming.headers)) {
      server.closeAllConnections();
      server.close();
      return;
    }
    const upstream = httpRequest(`${new URL(inner.url).origin}${incoming.url ?? '/'}`, { method: incoming.method, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  const outer = await listenOnLoopback(server);
  return {
    url: outer.url,
    close: async () => {
      if (server.listening) await outer.close();
      await inner.close();
    },
  };
}

/** The mock, with the request's body read first by `read` (undefined: as sent). */
const rewritingBody =
  (read: (text: string) => string | Response): Fault =>
  async (request, mock) => {
    if (!isCreate(request)) return mock(request);
    const read_ = read(await request.text());
    return typeof read_ === 'string' ? mock(new Request(request, { body: read_ })) : read_;
  };

const FAULTS: Readonly<Record<string, { start: () => Promise<Deployment>; caughtBy: string; message: RegExp }>> = {
  'a JSON body null answered 500': {
    start: () =>
      faultyDeployment(
        rewritingBody((text) => (text.trim() === 'null' ? json(500, { code: 'internal', message: 'null', status: 500 }) : text)),
        50,
      ),
    caughtBy: 'createPet.variation',
    message: /createPet answered 500 to the JSON text null: a server error/,
  },
  'Prefer: return=minimal answered 500': {
    start: () =>
      faultyDeployment(
        (request, mock) =>
          /return=minimal/.test(request.headers.get('prefer') ?? '')
            ? Promise.resolve(json(500, { code: 'internal', message: 'x', status: 500 }))
            : mock(request),
        50,
      ),
    caughtBy: 'listPets.variation',
    message: /listPets with Prefer: return=minimal answered 500: a server error/,
  },
  'an empty Authorization header crashing the process': {
    start: () => crashingOn((_, headers) => headers.authorization === ''),
    // Whichever operation's variant gets there first takes the deployment down.
    caughtBy: '*.variation',
    // A crash is one fault for the run (the deployment stopped answering), naming the requests it left unanswered.
    message: /stopped answering after it had answered \d+ requests of this run/,
  },
  'an OPTIONS request crashing the process': {
    start: () => crashingOn((method) => method === 'OPTIONS'),
    caughtBy: 'methods.variation',
    message: /stopped answering after it had answered \d+ requests of this run: .*OPTIONS http:\/\/[^ ]+\/v1\/pets/,
  },
  'Accept: */* answered 406 (a negotiation that matches application/json only)': {
    start: () =>
      faultyDeployment(
        (request, mock) =>
          request.headers.get('accept') === '*/*' ? Promise.resolve(json(406, { code: 'not_acceptable', message: 'x', status: 406 })) : mock(request),
        50,
      ),
    caughtBy: 'getPet.variation',
    message: /getPet with Accept: \*\/\* answered 406 where the request spelt plainly got 200, and RFC 9110 §12.5.1/,
  },
  'a Content-Type with a charset in capitals refused (an exact string match)': {
    start: () =>
      faultyDeployment(
        (request, mock) =>
          isCreate(request) && /UTF-8|JSON/.test(request.headers.get('content-type') ?? '')
            ? Promise.resolve(json(415, { code: 'unsupported_media_type', message: 'x', status: 415 }))
            : mock(request),
        50,
      ),
    caughtBy: 'createPet.variation',
    message: /createPet with Content-Type: Application\/JSON; charset=utf-8 answered 415 where the request spelt plainly got 201/,
  },
  'an unknown preference refused with 400': {
    start: () =>
      faultyDeployment(
        (request, mock) =>
          /petstore-verify-unknown/.test(request.headers.get('prefer') ?? '')
            ? Promise.resolve(json(400, { code: 'bad_request', message: 'unknown preference', status: 400 }))
            : mock(request),
        50,
      ),
    caughtBy: 'getPet.variation',
    message: /getPet with Prefer: petstore-verify-unknown=1 answered 400 where the request spelt plainly got 200, and RFC 7240 §2/,
  },
  'a body over 1 MiB answered 500 (a size limit that throws)': {
    start: () =>
      faultyDeployment(
        rewritingBody((text) => (text.length > 1024 * 1024 ? json(500, { code: 'internal', message: 'x', status: 500 }) : text)),
        50,
      ),
    caughtBy: 'createPet.variation',
    message: /createPet with a body over 1 MiB answered 500: a server error/,
  },
  'the key taken under any scheme (a check of the scheme by its length)': {
    start: () =>
      faultyDeployment((request, mock) => {
        const authorization = request.headers.get('authorization') ?? '';
        const headers = new Headers(request.headers);
        if (/^\S{6} /.test(authorization)) headers.set('authorization', `Bearer ${authorization.slice(7)}`);
        return mock(new Request(request, { headers }));
      }, 50),
    caughtBy: '*.variation',
    message: /with the key under the scheme Digest accepted it/,
  },
  'HEAD answered 500': {
    start: () =>
      faultyDeployment(
        (request, mock) => (request.method === 'HEAD' ? Promise.resolve(json(500, { code: 'internal', message: 'x', status: 500 })) : mock(request)),
        50,
      ),
    caughtBy: 'methods.variation',
    message: /HEAD \/pets answered 500: a server error, never allowed/,
  },
  'a path the spec does not define answered 500 (a router that throws on a path it does not match)': {
    start: () =>
      faultyDeployment(
        (request, mock) =>
          /^\/v1\/pets(\/[^/]+)?$/.test(new URL(request.url).pathname)
            ? mock(request)
            : Promise.resolve(json(500, { code: 'internal', message: 'x', status: 500 })),
        50,
      ),
    caughtBy: 'methods.variation',
    message: /(?:OPTIONS|HEAD|DELETE) \/pets\/\d+\/petstore-verify-undefined answered 500: a server error, never allowed/,
  },
  'an undocumented query parameter named __proto__ answered 500 (a query read into a plain object)': {
    start: () =>
      faultyDeployment(
        (request, mock) =>
          new URL(request.url).searchParams.has('__proto__') ? Promise.resolve(json(500, { code: 'internal', message: 'x', status: 500 })) : mock(request),
        50,
      ),
    caughtBy: '*.variation',
    message: /with a query parameter the spec does not document, named __proto__ answered 500: a server error/,
  },
  'a 405 without Allow (RFC 9110 §15.5.6)': {
    start: () =>
      faultyDeployment(async (request, mock) => {
        const answer = await mock(request);
        if (answer.status !== 405) return answer;
        const headers = new Headers(answer.headers);
        headers.delete('allow');
        return new Response(answer.body, { status: 405, headers });
      }, 50),
    caughtBy: 'methods.variation',
    message: /DELETE \/pets\/\d+ answered 405 without an Allow header, which RFC 9110 §15.5.6 requires/,
  },
};

describe.concurrent('request variation catches, naming the variant and its rule', () => {
  for (const [name, { start, caughtBy, message }] of Object.entries(FAULTS)) {
    it(`${name} (${caughtBy})`, async () => {
      const deployment = await start();
      try {
        const report = await verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'spec' });
        expect(
          report.exitCode,
          JSON.stringify(report.results.filter((r) => r.outcome !== 'pass').map((r) => [r.id, r.outcome, r.reason, r.findings.map((f) => f.message)])),
        ).toBe(1);
        const catches = (id: string) => (caughtBy.startsWith('*') ? id.endsWith(caughtBy.slice(1)) : id === caughtBy);
        const messages = report.results
          .filter((result) => catches(result.id) && result.outcome === 'fail')
          .flatMap((result) => result.findings.map((finding) => finding.message));
        expect(
          messages.some((text) => message.test(text)),
          `${caughtBy}: ${messages.join('\n')}`,
        ).toBe(true);
      } finally {
        await deployment.close();
      }
    });
  }

  it('takes member names matched ignoring case (Go’s and ASP.NET Core’s default), "bearer" refused (Rails’), and text after the JSON value or a comment taken (Go’s json.Decoder, Ruby’s JSON: RFC 8259 §9 extensions) as advice under --strict, never as a failure', async () => {
    const deployment = await faultyDeployment(async (request, mock) => {
      // Refused by the same auth layer as any wrong key: its 401, with the headers every 401 of getPet carries.
      if (/^bearer /.test(request.headers.get('authorization') ?? ''))
        return mock(new Request(request, { headers: { ...Object.fromEntries(request.headers), authorization: 'Bearer not-the-key' } }));
      if (!isCreate(request)) return mock(request);
      const text = (await request.text())
        .replace('"Name":', '"name":')
        .replace('"CategoryId":', '"categoryId":')
        .replace(/\} petstore-verify$/, '}')
        .replace(/^\/\* petstore-verify \*\/ /, '');
      return mock(new Request(request, { body: text }));
    }, 50);
    try {
      const report = await verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'spec', warnings: 'all' });
      expect(report.results.filter((result) => result.outcome === 'fail').map((result) => result.id)).toEqual([]);
      expect(report.advice).toEqual(
        expect.arrayContaining([
          expect.stringMatching(
            /createPet with the required member name spelt Name accepted it, where JSON Schema required: member names are compared exactly .*advice: Go’s encoding\/json/,
          ),
          expect.stringMatching(/with the key under the scheme spelt "bearer" answered 401 where the request spelt plainly got 2\d\d, and RFC 9110 §11\.1/),
          expect.stringMatching(/createPet with text after the JSON value accepted it, where RFC 8259 §2: a JSON text is one value.*RFC 8259 §9/),
          expect.stringMatching(/createPet with a comment accepted it, where RFC 8259 §2: JSON has no comments.*RFC 8259 §9/),
        ]),
      );
    } finally {
      await deployment.close();
    }
  });

  it('passes a deployment that makes the choices the standards leave open otherwise than the mock', async () => {
    // A byte order mark skipped, a name given twice read as its last, 406 for an Accept it cannot meet,
    // return=minimal honoured with an empty 201, OPTIONS and HEAD and DELETE answered 405.
    const deployment = await faultyDeployment(async (request, mock) => {
      if (['OPTIONS', 'HEAD', 'DELETE'].includes(request.method))
        return json(405, { code: 'method_not_allowed', message: 'no', status: 405 }, { allow: 'GET, POST' });
      if (request.headers.get('accept') === 'text/html') return json(406, { code: 'not_acceptable', message: 'JSON only', status: 406 });
      if (!isCreate(request)) return mock(request);
      let text = (await request.text()).replace(/^\uFEFF/, '');
      try {
        text = JSON.stringify(JSON.parse(text));
      } catch {}
      const response = await mock(new Request(request, { body: text }));
      if (response.status !== 201 || request.headers.get('prefer') !== 'return=minimal') return response;
      return new Response(null, { status: 201, headers: { location: response.headers.get('location') ?? '', 'preference-applied': 'return=minimal' } });
    }, 50);
    try {
      const report = await verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'spec' });
      const variation = report.results.filter((result) => result.id.endsWith('.variation'));
      expect(variation.map((result) => [result.id, result.outcome, result.findings.map((finding) => finding.message)])).toEqual(
        variation.map((result) => [result.id, 'pass', []]),
      );
      expect(variation).toHaveLength(4);
    } finally {
      await deployment.close();
    }
  });
});
