import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The run test/tooling/children.test.ts starts and then stops or kills: the fixture alone, one worker.
export default defineConfig({
  root: fileURLToPath(new URL('../../../', import.meta.url)),
  test: { include: ['test/tooling/children/*.fixture.ts'], testTimeout: 600_000, hookTimeout: 600_000, maxWorkers: 1 },
});
