/**
 * Faults the independent deployments showed (bench/independent), each caught by the rule it is an
 * instance of, with one failure that names the likely fix; and, for each rule, a deployment making the
 * other choice the interface leaves open, which must pass:
 * - a member NewPet does not name is allowed (JSON Schema additionalProperties absent): refusing it is a fault;
 * - a body declared as another media type than the spec's (RFC 9110 §8.3) is refused, never read as JSON;
 * - the zero value of a field's type that its schema allows is a value, not an absent field;
 * - a header the deployment sends on some of an operation's documented responses, it sends on every one;
 * - a Location names the created resource under the deployment's base path (RFC 9110 §10.2.2), when sent;
 * - Referer changes nothing (RFC 9110 §10.1.3);
 * - a crash after an answer is blamed on the request answered, the variant named, not on the next request.
 */
import { createServer, request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { type VerificationReport, verify } from '../../src/contracts/runner.js';
import {
  alternativeDeployment,
  correctDeployment,
  type Deployment,
  FAULTS,
  type Fault,
  faultyDeployment,
  isCreate,
  json,
  listenOnLoopback,
} from '../support/deployments.js';

const KEY = 'petstore-dev-key';

const fault = (name: string) => FAULTS[name] as Fault;

/** What failed, for an assertion's message. */
const failed = (report: VerificationReport) =>
  JSON.stringify(report.results.filter((r) => r.outcome === 'fail' || r.outcome === 'error').map((r) => [r.id, r.follows, r.findings.map((f) => f.message)]));

const CAUGHT: Readonly<Record<string, { caughtBy: string; message: RegExp }>> = {
  'a member NewPet does not name refused (pydantic Extra.forbid)': {
    caughtBy: 'createPet.variation',
    message:
      /createPet with a member the schema does not name answered 400 where the request spelt plainly got 201, and JSON Schema additionalProperties: absent/,
  },
  'a body declared text/plain read as JSON': {
    caughtBy: 'createPet.variation',
    message: /createPet with the JSON body declared as Content-Type: text\/plain accepted it, where RFC 9110 §8\.3/,
  },
  'an empty name or a categoryId 0 taken for a missing field': {
    caughtBy: 'createPet.boundaries',
    message:
      /refused a body with categoryId 0 \(the zero value of its type\) with 400, and took the same body with categoryId 4242425.*test whether the field was sent/,
  },
  "getPet's Deprecation, Sunset and Link only on its 200s": {
    caughtBy: 'run.headers',
    message: /getPet sends Deprecation, Sunset and Link on its 200 answers but not on its .*404.* answers .*set them where every answer of getPet is written/,
  },
  'a Location without the base path': {
    caughtBy: 'createPet.echo',
    message:
      /a Location that names the new pet \d+ outside the base path: \/pets\/\d+ .*where the pet is at \/v1\/pets\/\d+; RFC 9110 §10\.2\.2.*write it from the base path/,
  },
  "a Referer from another site refused with a bare 403 (Rack::Protection's JsonCsrf)": {
    caughtBy: '*.variation',
    message: /with Referer: https:\/\/another-site\.example\/page answered 403 where the request spelt plainly got 200, and RFC 9110 §10\.1\.3/,
  },
};

describe.concurrent('each fault is caught by the rule it is an instance of, with one failure naming the fix', () => {
  for (const [name, { caughtBy, message }] of Object.entries(CAUGHT)) {
    it(`${name} (${caughtBy})`, async () => {
      const deployment = await faultyDeployment(fault(name), 50);
      try {
        const report = await verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'spec' });
        expect(report.exitCode, failed(report)).toBe(1);
        const catches = (id: string) => (caughtBy.startsWith('*') ? id.endsWith(caughtBy.slice(1)) : id === caughtBy);
        const causes = report.results.filter((result) => result.outcome === 'fail' && result.follows === undefined);
        expect(
          causes.some((result) => catches(result.id) && result.findings.some((finding) => message.test(finding.message))),
          failed(report),
        ).toBe(true);
        // The Referer's bare 403 also breaks the Error body and the documented statuses: those are its own faults.
        if (!name.includes('Referer')) expect(report.counts.failed, failed(report)).toBe(1);
      } finally {
        await deployment.close();
      }
    });
  }
});

/** The mock behind a server that answers, then dies (its connections cut, new ones refused) once it has answered a request `kills` picks. */
async function diesAfterAnswering(kills: (headers: Record<string, string | string[] | undefined>) => boolean): Promise<Deployment> {
  const inner = await faultyDeployment((request, mock) => mock(request), 50);
  const server = createServer((incoming, outgoing) => {
    const upstream = httpRequest(`${new URL(inner.url).origin}${incoming.url ?? '/'}`, { method: incoming.method, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
      // A background task of this request raises once the answer is out: the process exits.
      if (kills(incoming.headers))
        outgoing.on('finish', () => {
          server.closeAllConnections();
          server.close();
        });
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

describe('a crash is blamed on the request that caused it', () => {
  it('names the variant a deployment answered before it died, not the request that met the refusal next', async () => {
    const deployment = await diesAfterAnswering((headers) => headers.prefer === 'handling=lenient');
    try {
      const report = await verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'spec', concurrency: 1 });
      expect(report.exitCode, failed(report)).toBe(1);
      expect(report.counts.failed, failed(report)).toBe(1);
      const cause = report.results.find((result) => result.outcome === 'fail' && result.follows === undefined);
      const finding = cause?.findings[0];
      // Named whether or not the next request was already on its way when the process died (then it is named too, as left in flight).
      expect(finding?.message, failed(report)).toMatch(
        /stopped answering after it had answered \d+ requests of this run: .*(it answered|The last it answered before were) Prefer: handling=lenient: GET http:\/\/127\.0\.0\.1:\d+\/v1\/pets[, ]/,
      );
    } finally {
      await deployment.close();
    }
  });
});

describe.concurrent('the other choices the interface leaves open pass', () => {
  const deployments: Readonly<Record<string, () => Promise<Deployment>>> = {
    // Every header of getPet left out, no Location, categories 1..10 only (so 0 refused as 4242425 is), 400 for a body not JSON.
    'no documented header at all, known categories only': () => alternativeDeployment(),
    'no Location on its 201s': () => correctDeployment({ omitLocation: true }),
    'an absolute Location, a body not sent as JSON refused 400, and a member NewPet does not name kept and echoed': () =>
      faultyDeployment(async (request, mock) => {
        if (!isCreate(request)) return mock(request);
        if (!/^application\/json/i.test(request.headers.get('content-type') ?? ''))
          return json(400, { code: 'bad_request', message: 'send JSON', status: 400 });
        const text = await request.text();
        const response = await mock(new Request(request, { body: text }));
        if (response.status !== 201) return response;
        // The pet's text as the mock wrote it (its int64s exact), the members NewPet does not name put before it.
        const pet = await response.text();
        const extra = Object.entries(JSON.parse(text) as Record<string, unknown>).filter(
          ([member]) => !['name', 'categoryId', 'status', 'id'].includes(member),
        );
        const members = extra.map(([member, value]) => `${JSON.stringify(member)}:${JSON.stringify(value)},`).join('');
        const location = new URL(response.headers.get('location') ?? '', request.url).href;
        return new Response(`{${members}${pet.slice(1)}`, { status: 201, headers: { 'content-type': 'application/json', location } });
      }, 50),
  };
  for (const [name, start] of Object.entries(deployments)) {
    it(name, async () => {
      const deployment = await start();
      try {
        const report = await verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'spec' });
        expect(failed(report)).toBe('[]');
        expect(report.exitCode).toBe(0);
      } finally {
        await deployment.close();
      }
    });
  }
});
