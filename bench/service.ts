/**
 * `npm run bench:service`: throughput and latency of the embedded service on loopback,
 * each operation against its own floor — a bare node:http server answering, as a fixed
 * body, the very bytes that operation answers — in the same run.
 *
 * Each server runs in its own child process (this file, re-run with `--child`), so it has
 * an event loop of its own and the load generator (one undici Pool, CONCURRENCY requests in
 * flight) does not steal it. Scenarios: get task, create task, and list tasks of a project of
 * 10,000 tasks (whole, and one page of 21 with `limit`/`offset`; after the warm-up these are
 * answered from the list cache, src/service/list-cache.ts, as repeated reads are in use).
 * A bare Fastify server with get task's fixed body is shown for reference (the framework's
 * own cost). Besides req/s, each row gives the server's CPU time per request
 * (process.cpuUsage in the child), which varies far less than req/s on a shared machine.
 *
 * Environment: BENCH_SECONDS (5), BENCH_CONCURRENCY (50), BENCH_ONLY=get,create,list,page,
 * BENCH_CPU_PROF=<dir> (V8 CPU profiles of the children, for tuning).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { Pool } from 'undici';
import { openDatabase } from '../src/service/db.js';
import { type SeedResult, seedDemoWorkspace, startService } from '../src/service/index.js';
import { insertProject } from '../src/service/projects.js';
import { createTask } from '../src/service/task-create.js';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 5) * 1000;
// Long enough for get task to have touched most of the 10,000 tasks once.
const WARMUP_MS = 2000;
const LIST_SIZE = 10_000;

type Kind = 'service' | 'floor' | 'fastify';

// ── Children: the servers ────────────────────────────────────────────────────

/** `arg`: the database file (service) or a file holding the body to answer (floors). */
async function child(kind: Kind, arg: string): Promise<void> {
  let close: () => Promise<void>;
  let url: string;
  if (kind === 'service') {
    const service = await startService({ dbPath: arg, port: 0 });
    url = service.url;
    close = service.close;
  } else if (kind === 'fastify') {
    const app = Fastify({ logger: false });
    const body = readFileSync(arg, 'utf8');
    app.get('/', (_req, reply) => {
      reply.type('application/json; charset=utf-8').send(body);
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    close = () => app.close();
  } else {
    const body = readFileSync(arg);
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise((r) => server.close(() => r()));
  }
  process.on('message', (m) => {
    if (m === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send?.({ cpuMicros: user + system });
    }
  });
  process.on('disconnect', () => {
    void close().then(() => process.exit(0));
  });
  process.send?.({ url });
}

interface Server {
  url: string;
  proc: ChildProcess;
  /** The child's CPU time so far, in microseconds. */
  cpu(): Promise<number>;
}

function startChild(kind: Kind, arg: string): Promise<Server> {
  const profile = process.env.BENCH_CPU_PROF;
  const execArgv = profile
    ? [...process.execArgv, '--cpu-prof', `--cpu-prof-dir=${profile}`]
    : process.execArgv;
  const proc = fork(fileURLToPath(import.meta.url), ['--child', kind, arg], {
    stdio: 'inherit',
    execArgv,
  });
  const cpu = () =>
    new Promise<number>((resolve) => {
      const onMessage = (m: unknown) => {
        const micros = (m as { cpuMicros?: number }).cpuMicros;
        if (micros === undefined) return;
        proc.off('message', onMessage);
        resolve(micros);
      };
      proc.on('message', onMessage);
      proc.send('cpu');
    });
  return new Promise((resolve, reject) => {
    proc.once('message', (m) => resolve({ url: (m as { url: string }).url, proc, cpu }));
    proc.once('exit', (code) => reject(new Error(`${kind} child exited with ${code}`)));
  });
}

// ── Load ─────────────────────────────────────────────────────────────────────

interface Request {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

interface Result {
  name: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  cpuPerRequest: number;
  errors: number;
  /** The floor this operation is compared with. */
  floor?: Result;
}

async function load(
  name: string,
  server: Server,
  next: (i: number) => Request,
  expectStatus: number,
): Promise<Result> {
  const origin = server.url;
  const pool = new Pool(origin, { connections: CONCURRENCY, pipelining: 1 });
  const run = async (ms: number) => {
    const latencies: number[] = [];
    let errors = 0;
    let i = 0;
    const deadline = performance.now() + ms;
    const worker = async () => {
      while (performance.now() < deadline) {
        const r = next(i++);
        const start = performance.now();
        const res = await pool.request({ origin, ...r });
        await res.body.dump();
        latencies.push(performance.now() - start);
        if (res.statusCode !== expectStatus) errors++;
      }
    };
    const began = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    return { latencies, errors, elapsed: performance.now() - began };
  };
  await run(WARMUP_MS);
  const cpuBefore = await server.cpu();
  const { latencies, errors, elapsed } = await run(DURATION_MS);
  const cpuAfter = await server.cpu();
  await pool.close();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))];
  return {
    name,
    requests: latencies.length,
    rps: latencies.length / (elapsed / 1000),
    p50: pct(0.5),
    p99: pct(0.99),
    cpuPerRequest: (cpuAfter - cpuBefore) / latencies.length,
    errors,
  };
}

// ── Setup: a seeded database with a project of 10,000 tasks ─────────────────

function prepare(dbPath: string): {
  seed: SeedResult;
  bigProject: string;
  taskIds: string[];
  ms: number;
} {
  const seed = seedDemoWorkspace(dbPath);
  const db = openDatabase(dbPath);
  const caller = {
    workspaceId: seed.workspaceId,
    workspaceName: seed.workspaceName,
    userId: seed.users[0].id,
  };
  const started = performance.now();
  const bigProject = insertProject(db, caller, { name: 'Ten thousand', groups: ['One', 'Two'] });
  const users = seed.users.map((u) => u.id);
  // One transaction through the domain functions (no events: these are not news).
  const taskIds = db.transaction(() =>
    Array.from(
      { length: LIST_SIZE },
      (_, i) =>
        createTask(
          db,
          caller,
          {
            projectId: bigProject,
            name: `Task ${i + 1}`,
            priority: i % 5,
            taskUsers: [users[i % users.length], users[(i + 2) % users.length]],
            dueDate: '2026-11-25',
          },
          { emitEvent: false },
        ).taskId,
    ),
  )();
  const ms = performance.now() - started;
  db.close();
  return { seed, bigProject, taskIds, ms };
}

// ── Main ─────────────────────────────────────────────────────────────────────

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'worklink-bench-'));
  const children: ChildProcess[] = [];
  try {
    const dbPath = join(dir, 'bench.db');
    const { seed, bigProject, taskIds, ms } = prepare(dbPath);
    console.log(`Seeded ${LIST_SIZE} tasks in one transaction in ${ms.toFixed(0)} ms.`);
    console.log(
      `Load: ${CONCURRENCY} concurrent requests (undici Pool), ${DURATION_MS / 1000} s per ` +
        `scenario after ${WARMUP_MS / 1000} s warm-up; each server in its own child process.\n`,
    );

    const service = await startChild('service', dbPath);
    children.push(service.proc);
    const headers = { apiKey: seed.apiKey };
    const only = process.env.BENCH_ONLY?.split(',');
    const wanted = (key: string) => !only || only.includes(key);
    const root = () => ({ method: 'GET' as const, path: '/' });
    /** A floor answering exactly what `sample` answers, so the two differ only in the work. */
    const floorFor = async (name: string, sample: Request) => {
      const res = await fetch(`${service.url}${sample.path}`, {
        method: sample.method,
        headers: sample.headers,
        body: sample.body,
      });
      const file = join(dir, `${name}.json`);
      writeFileSync(file, Buffer.from(await res.arrayBuffer()));
      const floor = await startChild('floor', file);
      children.push(floor.proc);
      return floor;
    };
    const results: Result[] = [];
    const measure = async (
      key: string,
      name: string,
      next: (i: number) => Request,
      status: number,
    ) => {
      const floor = await floorFor(key, next(0));
      const f = await load(`  floor: node:http, the same ${key} bytes`, floor, root, 200);
      const r = await load(name, service, next, status);
      results.push({ ...r, floor: f }, f);
      floor.proc.disconnect();
    };
    if (wanted('get')) {
      const path = (i: number) => `/v1.0/task/${taskIds[(i * 7919) % taskIds.length]}`;
      await measure('get', 'get task', (i) => ({ method: 'GET', path: path(i), headers }), 200);
      const fastifyFile = join(dir, 'fastify.json');
      writeFileSync(
        fastifyFile,
        await (await fetch(`${service.url}${path(0)}`, { headers })).text(),
      );
      const bareFastify = await startChild('fastify', fastifyFile);
      children.push(bareFastify.proc);
      results.push(await load('  reference: bare Fastify, get task bytes', bareFastify, root, 200));
    }
    if (wanted('create')) {
      const body = JSON.stringify({
        projectId: seed.projects[1].projectId,
        name: 'Benchmark task',
        priority: 2,
        dueDate: '2026-11-25',
        taskUsers: [seed.users[1].id],
      });
      const post = () => ({
        method: 'POST' as const,
        path: '/v1.0/task',
        headers: { ...headers, 'content-type': 'application/json' },
        body,
      });
      await measure('create', 'create task', post, 201);
    }
    if (wanted('list')) {
      const list = () => ({
        method: 'GET' as const,
        path: `/v1.0/task?projectId=${bigProject}`,
        headers,
      });
      await measure('list', `list tasks (${LIST_SIZE})`, list, 200);
    }
    if (wanted('page')) {
      const page = (i: number) => ({
        method: 'GET' as const,
        path: `/v1.0/task?projectId=${bigProject}&limit=21&offset=${(i % 400) * 20}`,
        headers,
      });
      await measure('page', `list tasks, a page of 21 of ${LIST_SIZE}`, page, 200);
    }
    printTable(results);
  } finally {
    for (const c of children) if (c.connected) c.disconnect();
    await Promise.all(
      children.map((c) =>
        c.exitCode === null ? new Promise((r) => c.once('exit', r)) : undefined,
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  }
}

function printTable(results: Result[]): void {
  const rows = results.map((r) => [
    r.name,
    r.rps.toFixed(0),
    r.p50.toFixed(2),
    r.p99.toFixed(2),
    r.floor ? `${(r.rps / r.floor.rps).toFixed(2)}x` : '',
    r.cpuPerRequest.toFixed(0),
    r.floor ? `${(r.floor.cpuPerRequest / r.cpuPerRequest).toFixed(2)}x` : '',
    String(r.errors),
  ]);
  const head = [
    'scenario (each before its floor)',
    'req/s',
    'p50 ms',
    'p99 ms',
    'req/s vs floor',
    'server CPU µs/req',
    'CPU vs floor',
    'errors',
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
  // The aims of issue 25 (server CPU per request, floor ÷ service): how far each one is.
  const aims: [string, number][] = [
    ['get task', 0.5],
    ['create task', 0.3],
    [`list tasks (${LIST_SIZE})`, 0.5],
  ];
  console.log('');
  for (const [name, aim] of aims) {
    const r = results.find((x) => x.name === name);
    if (!r?.floor) continue;
    console.log(
      `${name} / floor: throughput ${(r.rps / r.floor.rps).toFixed(2)}, ` +
        `server CPU per request ${(r.floor.cpuPerRequest / r.cpuPerRequest).toFixed(2)} ` +
        `(aim ≥ ${aim})`,
    );
  }
}

const childAt = process.argv.indexOf('--child');
if (childAt >= 0) {
  await child(process.argv[childAt + 1] as Kind, process.argv[childAt + 2]);
} else {
  await main();
}
