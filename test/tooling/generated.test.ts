import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { generatedFiles, root } from '../../scripts/generated-files.js';

it('keeps the committed types, validators and fixtures in step with spec/openapi.yaml and the seed (run `npm run generate`)', async () => {
  for (const [path, content] of Object.entries(await generatedFiles())) {
    expect(await readFile(new URL(path, root), 'utf8'), `${path} is stale: run npm run generate`).toBe(content);
  }
});
