/**
 * The package's own entry points (`petstore-mock`, `petstore-mock/msw`, ...) mapped to their
 * sources, read from the `paths` of tsconfig.json, so that examples import the package exactly as a
 * downstream project does while vitest and Vite run them against the code under test.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);

/** A Vite alias: an exact module name and the file it resolves to. */
export interface SourceAlias {
  readonly find: RegExp;
  readonly replacement: string;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Vite aliases from tsconfig.json `paths`.
 * @example
 * export default defineConfig({ resolve: { alias: sourceAliases() } });
 */
export function sourceAliases(): SourceAlias[] {
  const tsconfig = JSON.parse(readFileSync(new URL('tsconfig.json', root), 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } };
  return Object.entries(tsconfig.compilerOptions.paths).map(([name, [target]]) => ({
    find: new RegExp(`^${escapeRegExp(name)}$`),
    replacement: fileURLToPath(new URL(target as string, root)),
  }));
}
