import { defineConfig } from 'vitest/config';
import { sourceAliases } from './scripts/source-aliases.js';

export default defineConfig({
  resolve: { alias: sourceAliases() },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
