import { defineConfig } from 'vitest/config';
import { sourceAliases } from './scripts/source-aliases.js';

const resolve = { alias: sourceAliases() };

// Two projects: `unit` runs beside the code, in process (no sockets, no child processes), and must stay
// fast enough to run on every save; `e2e` starts real servers, browsers, Redis and third-party tools.
export default defineConfig({
  resolve,
  test: {
    projects: [
      { resolve, test: { name: 'unit', include: ['src/**/*.test.ts'] } },
      {
        resolve,
        test: { name: 'e2e', include: ['test/**/*.test.ts', 'examples/**/*.test.ts'], testTimeout: 20_000, hookTimeout: 30_000 },
      },
    ],
  },
});
