/**
 * Writes the files derived from spec/openapi.yaml. With `--check` (run by `npm test`) it writes
 * nothing and fails when a committed file differs from what the spec gives.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { generatedFiles, root } from './generated-files.js';

const check = process.argv.includes('--check');
const stale: string[] = [];
for (const [path, content] of Object.entries(await generatedFiles())) {
  const file = new URL(path, root);
  const current = await readFile(file, 'utf8').catch(() => undefined);
  if (current === content) continue;
  stale.push(path);
  if (!check) await writeFile(file, content);
}
if (check && stale.length > 0) {
  console.error(`Out of date with spec/openapi.yaml: ${stale.join(', ')}\nRun \`npm run generate\` and commit the result.`);
  process.exit(1);
}
console.log(stale.length === 0 ? 'generated files are up to date' : `wrote ${stale.join(', ')}`);
