/**
 * The production build (`npm run build`): the app bundled by esbuild into dist/app/main.mjs,
 * with the sandbox, the embedded service and the PostgreSQL store in chunks of their own,
 * loaded only by the modes that use them. One file per part instead of ~270 compiled modules
 * and their package trees is most of the cold start (bench/cold-start.ts). Type checking is
 * `npm run typecheck`'s job, not the build's.
 *
 * Kept outside the bundle: the native SQLite driver, the PostgreSQL driver (loaded only when
 * DATABASE_URL is set) and pino-pretty (development logs).
 */
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

// --out: another folder inside the project (tests build their own).
const OUT = parseArgs({ options: { out: { type: 'string', default: 'dist/app' } } }).values.out;

rmSync(OUT, { recursive: true, force: true });
await build({
  entryPoints: { main: 'src/main.ts' },
  outdir: OUT,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  external: ['better-sqlite3', 'pg', 'pg-native', 'pino-pretty'],
  // Bundled CommonJS packages (Bolt and its tree) call require(); give them Node's.
  banner: {
    js: "import { createRequire as __worklinkRequire } from 'node:module'; const require = __worklinkRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
console.log(`Built ${OUT}/main.mjs (run: node ${OUT}/main.mjs start)`);
