import { existsSync } from 'node:fs';

/** The Chromium the browser tests drive: CHROMIUM_PATH, or Debian's. */
export const CHROMIUM = process.env.CHROMIUM_PATH || ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));

// Without these, Chromium on a machine with no network stalls on its own background requests.
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Why a browser test cannot run here, for its skip notice or its failure. */
export function chromiumMissing(test: string): string {
  return `the browser test (${test}) needs Chromium, and none was found. Install it with \`apt-get install chromium\` (.ci/run does) or set CHROMIUM_PATH.`;
}

/** A developer without Chromium is told the test was skipped; CI, which installs it, fails instead. */
export function skipWithoutChromium(test: string): boolean {
  const skip = CHROMIUM === undefined && !process.env.CI;
  if (skip) console.warn(`SKIPPED: ${chromiumMissing(test)}`);
  return skip;
}
