// Compiles src/ to dist/ and copies the generated validators, which are JavaScript already.
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
rmSync('dist', { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
for (const file of ['validators.js', 'validators.d.ts']) cpSync(`src/generated/${file}`, `dist/generated/${file}`);
