// `npm run build:server`: bundles the server (src-server/main.ts) into dist/server/ as ESM for
// Node 20+, so `npm start` runs it with plain `node dist/server/main.js` (no TypeScript at start).
//
// - Packages stay external: node_modules is resolved at run time (native and heavy packages such
//   as sharp, pg, PGlite and oidc-provider are never bundled). '@contract/*' is bundled (tsconfig paths).
// - Code loaded with import() only when configured (the demo identity provider, the demo PACS, the
//   demo RIS receiver) becomes separate chunks, so a production start never loads them.
// - Files read at run time through `new URL('<relative>', import.meta.url)` keep working: the SQL
//   migrations are copied to <outdir>/migrations/, and every other such URL (resources/…) is
//   rewritten relative to the output folder, where every chunk lies.
// - Source maps are written next to the code; `node --enable-source-maps` uses them.
//
// Usage: node scripts/build-server.mjs [outdir]   (default dist/server; emptied first)
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVER = join(ROOT, 'src-server');
const MIGRATIONS = join(SERVER, 'db', 'migrations');
const URL_PATTERN = /new URL\(\s*(['"])([^'"]+)\1\s*,\s*import\.meta\.url\s*\)/g;

/** The output-relative URL for a file or folder the source names relative to itself. */
function rewrittenTarget(sourceFile, target, outdir) {
  const absolute = resolve(dirname(sourceFile), target);
  const inMigrations = absolute === MIGRATIONS || absolute.startsWith(MIGRATIONS + sep);
  const moved = inMigrations ? join(outdir, 'migrations', relative(MIGRATIONS, absolute)) : absolute;
  const path = relative(outdir, moved).split(sep).join('/') + (target.endsWith('/') ? '/' : '');
  return path.startsWith('../') ? path : `./${path}`;
}

/** Rewrites `new URL('…', import.meta.url)` in the server's own files for their new place. */
function runtimeFilesPlugin(outdir) {
  return {
    name: 'runtime-files',
    setup(builder) {
      builder.onLoad({ filter: /\.tsx?$/ }, (args) => {
        if (!args.path.startsWith(SERVER + sep)) return undefined;
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        const contents = source.replace(URL_PATTERN, (_match, quote, target) => {
          return `new URL(${quote}${rewrittenTarget(args.path, target, outdir)}${quote}, import.meta.url)`;
        });
        return { contents, loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts' };
      });
    },
  };
}

export async function buildServer(outdir = join(ROOT, 'dist', 'server')) {
  const target = resolve(outdir);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { main: join(SERVER, 'main.ts') },
    outdir: target,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    tsconfig: join(SERVER, 'tsconfig.json'),
    sourcemap: true,
    // Chunks lie beside main.js (the default), so one output-relative URL holds for every chunk.
    metafile: true,
    logLevel: 'warning',
    plugins: [runtimeFilesPlugin(target)],
  });
  cpSync(MIGRATIONS, join(target, 'migrations'), { recursive: true });
  // The folder is ESM whatever package.json it is copied beside.
  writeFileSync(join(target, 'package.json'), '{ "type": "module" }\n');
  return { outdir: target, outputs: Object.keys(result.metafile.outputs) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const { outdir, outputs } = await buildServer(process.argv[2]);
  const files = outputs.filter((file) => file.endsWith('.js')).length;
  console.log(`server built in ${Date.now() - started} ms: ${relative(process.cwd(), outdir) || '.'} (${files} JavaScript files)`);
}
