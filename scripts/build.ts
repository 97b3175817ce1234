// Compiles the service's entry points to plain JavaScript in dist/, so a start loads no TypeScript transformer.
//
//   tsx scripts/build.ts                  build dist/main.js, dist/worker.js, dist/cli.js and the threads dist/splitReplayWorker.js, dist/levelWorker.js, dist/analyticsThread.js
//   tsx scripts/build.ts --if-stale       only when dist/ is missing or older than a file it was built from
//   tsx scripts/build.ts --outdir DIR     build into DIR instead (the build test)
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build, type Metafile, type Plugin } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');
const ENTRY_POINTS = { main: 'src/main.ts', worker: 'src/worker.ts', cli: 'src/cli.ts', splitReplayWorker: 'src/operations/splitReplayWorker.ts', levelWorker: 'src/media/levelWorker.ts', analyticsThread: 'projections/analyticsThread.ts' };
// Besides the bundled sources, what changes the output.
const SETTINGS = ['tsconfig.json', 'scripts/build.ts'];

const { values } = parseArgs({ options: { 'if-stale': { type: 'boolean', default: false }, outdir: { type: 'string', default: 'dist' } } });
const outdir = path.resolve(ROOT, values.outdir);
const metaPath = path.join(outdir, 'meta.json');

/** Whether dist/ lacks an output, or a source or setting changed since it was built (mtimes: a few hundred stats). */
function stale(): boolean {
  if (!existsSync(metaPath)) return true;
  const builtAt = statSync(metaPath).mtimeMs;
  const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as Metafile;
  const changed = (file: string) => !existsSync(path.join(ROOT, file)) || statSync(path.join(ROOT, file)).mtimeMs > builtAt;
  return Object.keys(meta.outputs).some((file) => !existsSync(path.join(ROOT, file))) || [...Object.keys(meta.inputs), ...SETTINGS].some(changed);
}

/**
 * Modules find files next to them (build/espeak-words, piperWorker.py, workflows/index.ts) from `import.meta`;
 * bundled, that would name the bundle in dist/. Each module's own `import.meta.url`, `dirname` and `filename`
 * are rewritten to its source file's, relative to the bundle, so the same lookups work from src/ and dist/
 * (and from any checkout the two move with).
 */
const sourceLocations: Plugin = {
  name: 'source-locations',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.ts$/ }, async ({ path: file }) => {
      const source = await readFile(file, 'utf8');
      if (!source.includes('import.meta.')) return { contents: source, loader: 'ts' };
      const relative = (to: string) => JSON.stringify(path.relative(outdir, to).split(path.sep).join('/'));
      const url = `new URL(${relative(file)}, import.meta.url)`;
      const dirUrl = `new URL(${relative(path.dirname(file))}, import.meta.url)`;
      const contents = source
        .replaceAll('import.meta.url', `${url}.href`)
        .replaceAll('import.meta.dirname', `__sourcePath(${dirUrl})`)
        .replaceAll('import.meta.filename', `__sourcePath(${url})`);
      // Appended, not prepended, so the source map's line numbers stay those of the file; imports are hoisted.
      return { contents: `${contents}\nimport { fileURLToPath as __sourcePath } from 'node:url';\n`, loader: 'ts' };
    });
  },
};

if (!values['if-stale'] || stale()) {
  const started = performance.now();
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ENTRY_POINTS,
    outdir,
    bundle: true,
    // Dependencies (better-sqlite3's native addon among them) load from node_modules as they do under tsx.
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // tsconfig.json's experimentalDecorators, which type-graphql's decorators are written for.
    tsconfig: path.join(ROOT, 'tsconfig.json'),
    sourcemap: true,
    // Each bundle's own address, for a module that starts a thread on another bundle (src/operations/splitReplay.ts):
    // their `import.meta.url` names their source file (`sourceLocations`).
    banner: { js: 'const __bundleUrl = import.meta.url;' },
    metafile: true,
    logLevel: 'warning',
    plugins: [sourceLocations],
  });
  writeFileSync(metaPath, JSON.stringify(result.metafile));
  console.error(`built ${Object.keys(ENTRY_POINTS).map((name) => `${name}.js`).join(', ')} into ${path.relative(ROOT, outdir) || '.'} in ${Math.round(performance.now() - started)} ms`);
}
