// `npm run example:browser` serves this page; the browser test builds it. The page imports
// petstore-mock/msw as an app would, and here that name resolves to this repository's sources.
import { defineConfig } from 'vite';
import { sourceAliases } from '../../scripts/source-aliases.js';

export default defineConfig({
  resolve: { alias: sourceAliases() },
  // msw 3 (some 430 kB, its cookie store's list of public suffixes) and the mock (160 kB) make a chunk of
  // about 600 kB: fine for a page that exists to run the mock; an app loads it with import() in development only.
  build: { chunkSizeWarningLimit: 1_000 },
});
