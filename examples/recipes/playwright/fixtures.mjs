import { test as base } from '@playwright/test';

/**
 * Playwright's `test`, with the `request` fixture on the mock: a session of its own for each worker,
 * reset before every test. Relative paths resolve under the API (`request.get('pets')` is /v1/pets);
 * a leading slash resolves at the mock's origin (`/__mock/...`). Pages opened by the tests send the
 * session and key too, so the app's own requests land in the same session.
 */
export const test = base.extend({
  mockSession: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a fixture needs from its first parameter's pattern.
    async ({}, use, workerInfo) => use(`playwright-${workerInfo.parallelIndex}`),
    { scope: 'worker' },
  ],
  // biome-ignore lint/correctness/noEmptyPattern: as above.
  baseURL: async ({}, use) => use(`${process.env.PETSTORE_URL}/`),
  extraHTTPHeaders: async ({ mockSession }, use) => use({ authorization: 'Bearer petstore-dev-key', 'x-mock-session': mockSession }),
  resetSession: [
    async ({ request, mockSession }, use) => {
      // X-Mock-Admin is optional from a script; the mock refuses admin requests from web pages of other origins.
      const reset = await request.post(`/__mock/sessions/${mockSession}/reset`, { headers: { 'x-mock-admin': '1' } });
      if (!reset.ok()) throw new Error(`the mock did not reset session ${mockSession}: ${reset.status()} ${await reset.text()}`);
      await use();
    },
    { auto: true },
  ],
});

export { expect } from '@playwright/test';
