// Compiles src/ to dist/, copies the generated validators, which are JavaScript already, bundles the
// petstore-mock command's own modules into one file, and writes the CommonJS build under dist/cjs/ for `require()`.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { build } from 'esbuild';

// A relative specifier in a compiled module or declaration: `'./store.js'`, `"../errors.js"`.
const RELATIVE_SPECIFIER = /(['"])(\.\.?\/[^'"]*?)\.js\1/g;

// msw is, or imports, ES modules: msw 3 entirely, msw 2.12 and later through rettime. Node 22.12 and
// later require() them; Jest's CommonJS mode cannot (on Node 24.9 and later it can when run with
// --experimental-vm-modules), and its error names a file inside msw and not the way out. This says it.
const MSW_REQUIRE = `
let msw;
try {
  msw = require('msw');
} catch (error) {
  if (error?.name !== 'SyntaxError' && error?.code !== 'ERR_REQUIRE_ESM' && error?.code !== 'ERR_REQUIRE_ASYNC_MODULE') throw error;
  throw new Error(
    "petstore-mock/msw: require('msw') failed: msw is, or imports, ES modules (msw 3 entirely, msw 2.12 and later through rettime), and this runtime cannot require() them. " +
      'Node 22.12 and later can. Jest in its CommonJS mode can on Node 24.9 or later when run with NODE_OPTIONS=--experimental-vm-modules; ' +
      'otherwise use Jest in its ESM mode (https://jestjs.io/docs/ecmascript-modules). See https://github.com/petstore-mock/petstore-mock/blob/main/docs/mock-in-code.md#commonjs-and-jest',
    { cause: error },
  );
}
module.exports = msw;
`;

// TypeScript 7, the native compiler, emits the same JavaScript and the same declarations as 5.9 (string literal
// types keep the source's quotes) in an eighth of the time. Its package exports no bin/ path: found from package.json.
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript-native/package.json')), 'bin/tsc');
rmSync('dist', { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
// The generated modules written as JavaScript already (ajv's standalone validators), which tsc does not emit.
for (const file of readdirSync('src/generated').filter((name) => name.endsWith('.js') || name.endsWith('.d.ts'))) {
  cpSync(`src/generated/${file}`, `dist/generated/${file}`);
}

// The command's own modules as one, instead of some hundred: Node resolves, reads and compiles them one
// import level at a time, and the command answers its first request sooner (npm run bench). The packages
// it imports stay where npm installed them, once: bundled, they would ship a second copy of each (faker,
// ajv, yaml, commander), and load even what only some flags use (faker, for another --seed).
await build({
  entryPoints: ['dist/mock/hosts/mock-cli.js'],
  outfile: 'dist/bin/petstore-mock.js',
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node22',
  logLevel: 'warning',
  // A copy of modules dist/ ships as they are, for the command alone: without their spaces and comments
  // (a third of its size), its names kept, so that a stack names the functions it went through.
  minifyWhitespace: true,
  minifySyntax: true,
});

await buildCommonJs();

/**
 * The CommonJS build, for a project that `require()`s the package: Jest in its default configuration
 * (babel-jest transforms the project's files, not node_modules) and plain CommonJS scripts. It is made
 * from the ES modules just compiled, so src/ stays the one source: each compiled module that an entry
 * reaches becomes a `.cjs` file under dist/cjs/ at the same place, its relative imports pointing at the
 * `.cjs` beside it, so the CommonJS entries share one copy of each module as the ES ones do (one
 * `PetstoreError` class for `instanceof`). The entries are the `require` conditions of package.json.
 */
async function buildCommonJs() {
  const entries = requireEntries();
  const modules = await modulesReachedFrom(entries);
  await build({
    entryPoints: modules,
    outbase: 'dist',
    outdir: 'dist/cjs',
    outExtension: { '.js': '.cjs' },
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    logLevel: 'warning',
    // import() of a package becomes require(): Jest's CommonJS loader runs import() only in its ESM mode.
    supported: { 'dynamic-import': false },
    plugins: [commonJsImports()],
  });
  await bundleFaker();
  for (const declaration of declarationsReachedFrom(entries)) {
    const target = `dist/cjs/${declaration.slice('dist/'.length).replace(/\.d\.ts$/, '.d.cts')}`;
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(
      target,
      readFileSync(declaration, 'utf8').replace(RELATIVE_SPECIFIER, (_, quote, path) => `${quote}${path}.cjs${quote}`),
    );
  }
}

/** The compiled ES module behind each `require` condition of package.json: `./dist/cjs/index.cjs` is made from `dist/index.js`. */
function requireEntries() {
  const { exports } = JSON.parse(readFileSync('package.json', 'utf8'));
  return Object.values(exports).flatMap((target) => {
    const path = target?.require?.default;
    if (typeof path !== 'string') return [];
    const match = /^\.\/dist\/cjs\/(.+)\.cjs$/.exec(path);
    if (!match) throw new Error(`package.json: a require condition must name ./dist/cjs/<path>.cjs, got ${path}`);
    return [`dist/${match[1]}.js`];
  });
}

/** Every compiled module of dist/ that `entries` import, themselves included (not the packages they import). */
async function modulesReachedFrom(entries) {
  const { metafile } = await build({
    entryPoints: entries,
    outdir: 'dist/unwritten', // esbuild wants one for several entries; write: false keeps it unwritten
    bundle: true,
    write: false,
    metafile: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
  });
  return Object.keys(metafile.inputs).filter((path) => path.startsWith('dist/'));
}

/**
 * Rewrites the imports of the modules esbuild converts one by one: a relative import stays an import
 * of the `.cjs` module beside it (esbuild would otherwise inline it), faker's base build comes from
 * the copy under dist/cjs/vendor/, and `msw` through a require that says what to do when it fails.
 */
function commonJsImports() {
  return {
    name: 'petstore-commonjs-imports',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) =>
        args.kind === 'entry-point' ? undefined : { path: args.path.replace(/\.js$/, '.cjs'), external: true },
      );
      build.onResolve({ filter: /^@faker-js\/faker\/locale\/base$/ }, (args) => ({
        path: besideOutput(args.importer, 'dist/cjs/vendor/faker-base.cjs'),
        external: true,
      }));
      build.onResolve({ filter: /^msw$/ }, (args) =>
        args.namespace === 'msw-require' ? { path: 'msw', external: true } : { path: 'msw', namespace: 'msw-require' },
      );
      build.onLoad({ filter: /.*/, namespace: 'msw-require' }, () => ({ contents: MSW_REQUIRE, loader: 'js' }));
    },
  };
}

/** `target` as the `.cjs` made from the compiled module `importer` requires it: `../vendor/faker-base.cjs`. */
function besideOutput(importer, target) {
  const output = resolve('dist/cjs', relative(resolve('dist'), importer));
  const path = relative(dirname(output), resolve(target)).split(sep).join('/');
  return path.startsWith('.') ? path : `./${path}`;
}

/**
 * @faker-js/faker 10 is published as ES modules only, which Jest's CommonJS loader cannot require():
 * its base build, the one the fixtures use (with the English pet names of src/generated/pet-names.ts),
 * is bundled once into dist/cjs/vendor/ for the CommonJS modules to share.
 */
async function bundleFaker() {
  await build({
    stdin: { contents: "export * from '@faker-js/faker/locale/base';", resolveDir: process.cwd(), loader: 'js' },
    outfile: 'dist/cjs/vendor/faker-base.cjs',
    bundle: true,
    minify: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    logLevel: 'warning',
    legalComments: 'eof',
  });
}

/**
 * The declaration files the entries' types need: the `.d.ts` of each entry and, in turn, of each
 * relative import or `import("...")` type in them (types reach modules that the JavaScript does not).
 */
function declarationsReachedFrom(entries) {
  const found = new Set();
  const queue = entries.map((entry) => entry.replace(/\.js$/, '.d.ts'));
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (found.has(file)) continue;
    found.add(file);
    for (const [, , path] of readFileSync(file, 'utf8').matchAll(RELATIVE_SPECIFIER)) {
      queue.push(
        relative('.', resolve(dirname(file), `${path}.d.ts`))
          .split(sep)
          .join('/'),
      );
    }
  }
  return [...found];
}
