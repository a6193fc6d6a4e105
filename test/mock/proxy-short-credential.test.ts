/**
 * A client's short credential (under 8 characters) is hidden in what the proxy relays only where it
 * stands as a token of its own (issue 34): a credential `abc` once turned a pet `Fabcd` into `F***d`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProxyServer, startProxyServer } from '../../src/mock/proxy/proxy-server.js';
import { type Deployment, json, serve } from '../support/deployments.js';

let deployment: Deployment;
let proxy: ProxyServer;
beforeAll(async () => {
  deployment = await serve(async (request) =>
    json(200, [
      { id: 1, name: 'Fabcd', categoryId: 1, status: 'available' },
      { id: 2, name: `echo ${request.headers.get('authorization')?.split(' ')[1]}`, categoryId: 1, status: 'available' },
    ]),
  );
  proxy = await startProxyServer({ upstream: deployment.url, port: 0 });
});
afterAll(async () => {
  await proxy?.close();
  await deployment?.close();
});

describe('a short credential in what the proxy relays', () => {
  for (const credential of ['abc', 'a', '1'])
    it(`\`${credential}\` is hidden as a token, never inside a word, a number or a media type`, async () => {
      const response = await fetch(`${proxy.url}/pets`, { headers: { authorization: `Bearer ${credential}` } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const pets = (await response.json()) as { id: number; name: string }[];
      expect(pets.map((pet) => [pet.id, pet.name])).toEqual([
        [1, 'Fabcd'],
        [2, 'echo ***'],
      ]);
    });
});
