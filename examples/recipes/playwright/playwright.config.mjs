import { defineConfig } from '@playwright/test';

export default defineConfig({
  // One mock for the whole run: global-setup.ts (the one vitest uses) starts it, publishes its URL as
  // PETSTORE_URL and returns its teardown, which Playwright runs after the last worker.
  globalSetup: './global-setup.ts',
  fullyParallel: true,
});
