/**
 * The production build (`npm run build`): the app bundled by esbuild into dist/app/main.mjs,
 * with the sandbox, the embedded service and the PostgreSQL store in chunks of their own,
 * loaded only by the modes that use them. One file per part instead of ~270 compiled modules
 * and their package trees is most of the cold start (bench/cold-start.ts). Type checking is
 * `npm run typecheck`'s job, not the build's.
 *
 * Kept outside the bundle: the native SQLite driver, the PostgreSQL driver (loaded only when
 * DATABASE_URL is set) and pino-pretty (development logs).
 *
 * Memory (bench/memory.ts): V8 keeps each loaded file's source text in the heap for as long as
 * the process runs. Whitespace and comments are left out (names are kept, for stack traces;
 * the source maps give lines), and every file is pure ASCII: one character outside it (a dash
 * in a regular expression, from us or a package) makes V8 hold the whole file as two bytes a
 * character. Together: ~9.6 MB of source in the idle heap became ~4 MB.
 */
import { chmodSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
  minifyWhitespace: true,
  external: ['better-sqlite3', 'pg', 'pg-native', 'pino-pretty'],
  // Bundled CommonJS packages (Bolt and its tree) call require(); give them Node's.
  banner: {
    js: "import { createRequire as __worklinkRequire } from 'node:module'; const require = __worklinkRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
asciiOnly(OUT);
// package.json's `bin`: main.mjs starts with src/main.ts's `#!/usr/bin/env node`; runnable as is.
chmodSync(join(OUT, 'main.mjs'), 0o755);
console.log(`Built ${OUT}/main.mjs (run: node ${OUT}/main.mjs start)`);

/**
 * esbuild escapes what lies outside ASCII in strings but not in regular expressions or
 * comments; escaped here, one UTF-16 unit at a time (the same string, pattern or comment).
 * A character already behind a backslash would change meaning: the build stops instead.
 */
function asciiOnly(dir: string): void {
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.mjs'))) {
    const file = join(dir, name);
    const text = readFileSync(file, 'utf8');
    if (!/[\u0080-\uffff]/.test(text)) continue;
    const escaped = text.replace(/(\\?)([\u0080-\uffff])/g, (_, slash: string, char: string) => {
      if (slash) throw new Error(`${file}: an escaped non-ASCII character ("\\${char}")`);
      return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
    });
    writeFileSync(file, escaped);
  }
}
