// The Node.js version gate of both commands, `npm start` and `npm test`: on a Node older than the
// `engines` field of package.json allows, it says so in one line and exits before anything else is
// loaded, because the code it guards uses what only newer Nodes have (require() of ES modules,
// Map.groupBy) and would otherwise fail much later with an error that does not name the cause.
// Written for any Node that runs ES modules: no syntax or API newer than Node 14's.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The exit code of a setting the user must change, as src/errors.ts `EXIT.usage` has it (this file cannot import it). */
const USAGE = 2;

function parts(version) {
  return version.split('.').map((part) => Number.parseInt(part, 10) || 0);
}

function older(version, minimum) {
  const [a, b] = [parts(version), parts(minimum)];
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] || 0) !== (b[i] || 0)) return (a[i] || 0) < (b[i] || 0);
  return false;
}

/** The oldest Node that package.json's `engines.node` (`>=22.13`) accepts. */
function minimumNode() {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const found = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(manifest.engines.node);
  if (!found) throw new Error(`package.json engines.node must read ">=X.Y", got ${JSON.stringify(manifest.engines.node)}`);
  return found[1];
}

/** Exits with one line on stderr when this Node is older than `minimumNode()`; returns otherwise. */
export function requireSupportedNode(what) {
  const minimum = minimumNode();
  if (!older(process.versions.node, minimum)) return;
  process.stderr.write(
    `${what} needs Node.js ${minimum} or later, and this is Node.js ${process.versions.node} (${process.execPath}): install Node.js ${minimum} or later (nvm install ${minimum.split('.')[0]}, or https://nodejs.org) and run it again.\n`,
  );
  process.exit(USAGE);
}

// `node bin/supported-node.js "npm test"`: the gate of an npm script.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) requireSupportedNode(process.argv[2] || 'petstore-mock');
