/**
 * The house's measures, printed from the source text (run: `npm run house`):
 *   - import circles: groups of files that import each other round, type-only imports
 *     included (strongly connected components of the relative-import graph);
 *   - upward arrows: an import from a lower layer into a higher one (the layers below);
 *   - files over 300 and 400 lines;
 *   - `as` casts (not `as const`, not import renames) per 1,000 lines.
 * `--max-circles N --max-upward N --max-over-400 N` make it exit 1 when a measure is above N,
 * so the figures can be held in a test or CI.
 *
 * Imports are read with a pattern, not a parser: `from '…'`, `import '…'` and `import('…')`
 * with a relative path. That is every form this codebase uses.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Lower numbers may be imported by higher ones, never the other way. */
function layer(file: string): { rank: number; name: string } {
  const parts = file.split('/');
  const top = parts[1] ?? '';
  if (parts.length === 2) {
    return ['src/main.ts', 'src/start.ts'].includes(file)
      ? { rank: 90, name: 'entry' }
      : { rank: 0, name: 'src root' };
  }
  const slackSub = (sub: string) => {
    if (['format', 'ui', 'parse'].includes(sub)) return { rank: 50, name: `slack/${sub}` };
    if (sub === 'context') return { rank: 51, name: 'slack/context' };
    if (sub === 'start' || sub === 'app.ts') return { rank: 53, name: 'slack/start' };
    return { rank: 52, name: `slack/${sub}` };
  };
  switch (top) {
    case 'workapi':
      return { rank: 10, name: 'workapi' };
    case 'store':
      return { rank: 20, name: 'store' };
    case 'activity':
      return { rank: 25, name: 'activity' };
    case 'service':
      return { rank: 30, name: 'service' };
    case 'sync':
      return { rank: 40, name: 'sync' };
    case 'slack':
      return slackSub(parts[2] ?? '');
    case 'sandbox':
      return { rank: 60, name: 'sandbox' };
    default:
      return { rank: 45, name: top };
  }
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out.sort();
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

function importsOf(file: string, text: string, known: Set<string>): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1]!;
    const base = resolve(dirname(file), spec);
    const candidates = [
      base.replace(/\.js$/, '.ts'),
      base,
      `${base}.ts`,
      join(base, 'index.ts'),
    ].map((p) => relative(process.cwd(), p));
    const hit = candidates.find((c) => known.has(c));
    if (hit) found.add(hit);
  }
  return [...found];
}

/** Comments and string contents removed, so `as` inside them is not counted. */
function codeOnly(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/[^\n]*/g, '')
    .replace(/'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g, "''");
}

function castsIn(text: string): number {
  let n = 0;
  for (const line of codeOnly(text).split('\n')) {
    if (/^\s*(import|export)\b.*\bfrom\b/.test(line) || /^\s*import\s*\{/.test(line)) continue;
    for (const m of line.matchAll(/(\*\s*)?\bas\s+(\w+)/g)) {
      if (m[1] || m[2] === 'const') continue;
      n++;
    }
  }
  return n;
}

/** Tarjan's strongly connected components; returns those with more than one file. */
function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, idx.get(w)!));
      }
    }
    if (low.get(v) === idx.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

function flag(name: string): number | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : undefined;
}

const files = sourceFiles('src');
const known = new Set(files);
const graph = new Map<string, string[]>();
let lines = 0;
let casts = 0;
const sizes: [string, number][] = [];
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const n = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  lines += n;
  sizes.push([file, n]);
  casts += castsIn(text);
  graph.set(file, importsOf(file, text, known));
}

const groups = circles(graph);
const upward: string[] = [];
for (const [from, tos] of graph) {
  for (const to of tos) {
    const a = layer(from);
    const b = layer(to);
    if (b.rank > a.rank) upward.push(`${from} → ${to} (${a.name} → ${b.name})`);
  }
}
const over300 = sizes.filter(([, n]) => n > 300).sort((x, y) => y[1] - x[1]);
const over400 = over300.filter(([, n]) => n > 400);

console.log(`src: ${files.length} files, ${lines} lines`);
console.log(`import circles (type-only imports included): ${groups.length}`);
for (const g of groups) console.log(`  - ${g.length} files: ${g.join(', ')}`);
console.log(`upward arrows between layers: ${upward.length}`);
for (const u of upward) console.log(`  - ${u}`);
console.log(`files over 300 lines: ${over300.length}; over 400: ${over400.length}`);
for (const [f, n] of over300) console.log(`  - ${n} ${f}`);
console.log(`\`as\` casts: ${casts} (${((casts / lines) * 1000).toFixed(2)} per 1,000 lines)`);

const limits: [string, number | undefined, number][] = [
  ['circles', flag('--max-circles'), groups.length],
  ['upward arrows', flag('--max-upward'), upward.length],
  ['files over 400 lines', flag('--max-over-400'), over400.length],
];
const broken = limits.filter(([, max, got]) => max !== undefined && got > max);
for (const [name, max, got] of broken) console.error(`${name}: ${got}, more than ${max}`);
process.exit(broken.length ? 1 : 0);
