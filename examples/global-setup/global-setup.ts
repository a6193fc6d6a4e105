// vitest.config.ts: test: { globalSetup: ['./global-setup.ts'] }
import { startMockServer } from 'petstore-mock';

/** Starts the mock once for the whole run; tests call process.env.PETSTORE_URL (it ends in /v1). */
export default async function setup(): Promise<() => Promise<void>> {
  const server = await startMockServer({ port: 0 });
  process.env.PETSTORE_URL = server.url;
  return () => server.close();
}
