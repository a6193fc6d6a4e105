import { configDefaults, defineConfig } from 'vitest/config';
import { sourceAliases } from './scripts/source-aliases.js';

const resolve = { alias: sourceAliases() };

/** The release project's files (see below). */
const RELEASE = ['test/package/{install,consumers,downstream,jest,recipes,types,browser-bundle}.test.ts', 'test/tooling/bench-*smoke.test.ts'];

// Two projects: `unit` runs beside the code, in process (no sockets, no child processes), and must stay
// fast enough to run on every save; `e2e` starts real servers, browsers, Redis and third-party tools.
export default defineConfig({
  resolve,
  test: {
    // Vitest runs one file at a time on a 2-core machine (cores - 1), but an e2e file spends most of its
    // time waiting for the processes, sockets and timers it starts: four files at once keep both cores busy (six took as long: the verifier's runs then slow each other down).
    maxWorkers: 4,
    projects: [
      // In process and fast on a quiet machine; the bound is a hang's, not a speed's: a property test of a
      // few hundred milliseconds takes seconds beside two busy processes (.ci/run's loaded run).
      // Its files share their workers' modules (isolate: false), as a worker started and the package's
      // modules loaded again for each of 63 files took about half the project's CPU; a unit test puts back
      // what it changes of a module (fake timers, `waits.schedule`) in its afterEach.
      { resolve, test: { name: 'unit', include: ['src/**/*.test.ts'], testTimeout: 30_000, isolate: false } },
      {
        resolve,
        // One bound for every e2e test and hook: a hang's, not a speed's. The slowest tests (a whole
        // verifier run with every suite, the benchmark's smoke run) take tens of seconds on a quiet 2-core
        // machine and twice that or more beside two busy processes (.ci/run's loaded run); three minutes
        // leaves them room, and a test raises its own only when it waits on purpose for longer.
        // Its files share their workers' modules too (isolate: false): a worker started and the package's
        // modules, the spec's validators and the redactor's patterns loaded again for each of some 145
        // files cost about half a second of CPU a file (measured in docs/development.md). Each file stops
        // what it starts (servers, children, MSW's interception) and puts back what it changes of a module
        // or the environment; the setup file fails the one that does not.
        test: {
          name: 'e2e',
          include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...RELEASE],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          isolate: false,
          setupFiles: ['test/support/file-leaves-nothing.ts'],
        },
      },
      // What a release and CI add to `npm test` (`npm run test:release`): the packed package installed into new
      // projects from the registry (npm, tsc in every resolution mode, Jest, Vite, the recipes), and the
      // benchmark's smoke runs. They test the artifact and the bench, not a behaviour `npm test` leaves out.
      { resolve, test: { name: 'release', include: RELEASE, testTimeout: 180_000, hookTimeout: 180_000 } },
    ],
  },
});
