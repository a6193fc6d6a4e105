import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One mock for the whole run (it publishes its URL as PETSTORE_URL), and in every test file petstore.ts,
    // which gives each worker a session of its own.
    globalSetup: ['./global-setup.ts'],
    setupFiles: ['./petstore.ts'],
  },
});
