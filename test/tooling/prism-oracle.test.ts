import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/hosts/node-server.js';
import { AUTH, JSON_HEADERS } from '../support/http-facts.js';
import { FULL_PAGE } from '../support/page-size.js';
import { type RunningPrism, startPrism } from '../support/prism.js';

interface Violation {
  readonly location: string[];
  readonly message: string;
}

/** Requests across every operation and status, valid and not: the mock must answer all by the spec. */
const corpus: [string, string, RequestInit][] = [
  ['list, default page', '/pets', { headers: AUTH }],
  ['list, limit 1', '/pets?limit=1', { headers: AUTH }],
  ['list, a full page', `/pets?${FULL_PAGE}`, { headers: AUTH }],
  ['list, status sold', '/pets?status=sold', { headers: AUTH }],
  ['list, bad limit', '/pets?limit=0', { headers: AUTH }],
  ['list, bad status', '/pets?status=adopted', { headers: AUTH }],
  ['list, no key', '/pets', {}],
  ['create', '/pets', { method: 'POST', headers: JSON_HEADERS, body: '{"name":"Rex","categoryId":3}' }],
  ['create with status', '/pets', { method: 'POST', headers: JSON_HEADERS, body: '{"name":"Rex","categoryId":3,"status":"sold"}' }],
  ['create, big categoryId', '/pets', { method: 'POST', headers: JSON_HEADERS, body: '{"name":"Rex","categoryId":9223372036854775807}' }],
  ['create, missing name', '/pets', { method: 'POST', headers: JSON_HEADERS, body: '{"categoryId":3}' }],
  ['create, malformed', '/pets', { method: 'POST', headers: JSON_HEADERS, body: '{"name"' }],
  ['create, no key', '/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":3}' }],
  ['create, not JSON', '/pets', { method: 'POST', headers: { ...AUTH, 'content-type': 'text/plain' }, body: 'Rex' }],
  ['create, too large', '/pets', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ name: 'x'.repeat(1_100_000), categoryId: 1 }) }],
  ['get', '/pets/1', { headers: AUTH }],
  ['get, absent', '/pets/999', { headers: AUTH }],
  ['get, not an integer', '/pets/abc', { headers: AUTH }],
  ['get, no key', '/pets/1', {}],
  ['list, in a session', '/pets', { headers: { ...AUTH, 'x-mock-session': 'oracle' } }],
  ['create, in a session', '/pets', { method: 'POST', headers: { ...JSON_HEADERS, 'x-mock-session': 'oracle' }, body: '{"name":"Rex","categoryId":3}' }],
  ['list, a bad session name', '/pets', { headers: { ...AUTH, 'x-mock-session': 'a b' } }],
  ['get, forced 404', '/pets/1', { headers: { ...AUTH, prefer: 'code=404' } }],
  ['get, forced 410', '/pets/1', { headers: { ...AUTH, prefer: 'code=410' } }],
  ['create, forced 415', '/pets', { method: 'POST', headers: { ...JSON_HEADERS, prefer: 'code=415' }, body: '{"name":"Rex","categoryId":3}' }],
  ['list, forced 429 by the query', '/pets?__code=429', { headers: AUTH }],
  ['list, an expired token', '/pets', { headers: { ...AUTH, prefer: 'auth=expired' } }],
  ['list, a status that cannot be forced', '/pets', { headers: { ...AUTH, prefer: 'code=404' } }],
];

describe('Prism validation proxy in front of the mock', () => {
  let mock: MockServer;
  let prism: RunningPrism;

  beforeAll(async () => {
    mock = await startMockServer({ port: 0 });
    prism = await startPrism('proxy', mock.url);
  });
  afterAll(async () => {
    await prism?.close();
    await mock?.close();
  });

  for (const [what, path, init] of corpus) {
    it(`finds no response that breaks the spec: ${what}`, async () => {
      const response = await fetch(prism.url + path, init);
      await response.arrayBuffer();
      const violations = JSON.parse(response.headers.get('sl-violations') ?? '[]') as Violation[];
      expect(violations.filter((violation) => violation.location[0] === 'response')).toEqual([]);
      expect(response.status).toBeLessThan(500);
    });
  }
});
