/**
 * Where a burst's time goes, for bench/ack.ts: every HTTP exchange in this process seen
 * through Node's and undici's diagnostics channels, named by port (Worklink, the service,
 * fake Slack). For outgoing undici requests (the service client, response_url posts) the
 * wait for a pooled connection is told apart from the exchange itself; for each server, the
 * time from a request's head to its answer's end. With the event loop's load and the CPU per
 * command, this says what queues behind what: on one loop, an exchange's time is mostly the
 * other requests' work done meanwhile. One Breakdown per process: bench:ack keeps one beside
 * Worklink and one in the process of the service and fake Slack (bench/ack-slack-side.ts).
 */
import dc from 'node:diagnostics_channel';
import type { Server } from 'node:http';
import { type EventLoopUtilization, monitorEventLoopDelay, performance } from 'node:perf_hooks';

type Samples = number[];

/** Names of the local ports taking part (e.g. 3001 → 'service'). */
export type PortNames = Map<number, string>;

const portOf = (origin: string): number => Number(new URL(origin).port);

export class Breakdown {
  /** Per destination: ms waiting for a connection (undici's queue), ms in the exchange. */
  private readonly outQueued = new Map<string, Samples>();
  private readonly outTotal = new Map<string, Samples>();
  /** Per server: ms from a request's arrival to its answer's end. */
  private readonly inServer = new Map<string, Samples>();
  /** Outgoing undici calls by destination, method and path. */
  private readonly calls = new Map<string, number>();
  /** Store calls by table and method (countStoreCalls). */
  private readonly storeCalls = new Map<string, number>();
  private readonly started = new WeakMap<object, { at: number; sent?: number }>();
  private readonly delay = monitorEventLoopDelay({ resolution: 10 });
  private elu?: EventLoopUtilization;
  private cpu?: NodeJS.CpuUsage;
  private busy = { active: 0, idle: 0, cpuUs: 0 };
  private readonly unsubscribe: (() => void)[] = [];

  /** `whose`: whose CPU this process's is, as the report says it. */
  constructor(
    private readonly ports: PortNames,
    private readonly whose: string,
  ) {
    const on = (name: string, fn: (m: never) => void) => {
      dc.subscribe(name, fn as (m: unknown) => void);
      this.unsubscribe.push(() => dc.unsubscribe(name, fn as (m: unknown) => void));
    };
    const label = (path: string, port: number) =>
      path.startsWith('/response/') ? 'response_url' : (this.ports.get(port) ?? `port ${port}`);
    // undici (the service client, and global fetch: response_url posts).
    on('undici:request:create', ({ request }: { request: object }) => {
      this.started.set(request, { at: performance.now() });
    });
    on('undici:client:sendHeaders', ({ request }: { request: object }) => {
      const s = this.started.get(request);
      if (s) s.sent = performance.now();
    });
    const undiciEnd = ({
      request,
    }: {
      request: { origin: string; path: string; method: string };
    }) => {
      const s = this.started.get(request);
      if (!s) return;
      this.started.delete(request);
      const to = `${label(request.path, portOf(request.origin))} (undici)`;
      // Ids and queries left out, so calls group by what they ask.
      const path = request.path.split('?')[0]!.replace(/[0-9a-f]{24}|[0-9a-f-]{36}/g, ':id');
      this.calls.set(
        `${to} ${request.method} ${path}`,
        (this.calls.get(`${to} ${request.method} ${path}`) ?? 0) + 1,
      );
      push(this.outQueued, to, (s.sent ?? s.at) - s.at);
      push(this.outTotal, to, performance.now() - s.at);
    };
    on('undici:request:trailers', undiciEnd);
    on('undici:request:error', undiciEnd);
    // node:http clients (the Slack Web API client, through axios).
    on('http.client.request.start', ({ request }: { request: object }) => {
      this.started.set(request, { at: performance.now() });
    });
    on(
      'http.client.response.finish',
      ({ request }: { request: { path: string; getHeader(n: string): unknown } }) => {
        const s = this.started.get(request);
        if (!s) return;
        const port = Number(String(request.getHeader('host')).split(':')[1]);
        push(this.outTotal, `${label(request.path, port)} (node:http)`, performance.now() - s.at);
      },
    );
    // Servers: from the request's head to the answer's end.
    on('http.server.request.start', ({ request }: { request: object }) => {
      this.started.set(request, { at: performance.now() });
    });
    on(
      'http.server.response.finish',
      ({ request, server }: { request: { url?: string }; server: Server }) => {
        const s = this.started.get(request);
        if (!s) return;
        const address = server.address();
        const port = typeof address === 'object' && address ? address.port : 0;
        push(this.inServer, label(request.url ?? '', port), performance.now() - s.at);
      },
    );
  }

  /** Forgets what was measured (a new row). */
  clear(): void {
    for (const m of [this.outQueued, this.outTotal, this.inServer]) m.clear();
    this.calls.clear();
    this.storeCalls.clear();
    this.delay.reset();
    this.busy = { active: 0, idle: 0, cpuUs: 0 };
  }

  /** Measures the event loop and CPU from now (bare Bolt's rounds are left out by `pause`). */
  resume(): void {
    this.delay.enable();
    this.elu = performance.eventLoopUtilization();
    this.cpu = process.cpuUsage();
  }

  pause(): void {
    this.delay.disable();
    const elu = performance.eventLoopUtilization(this.elu);
    const cpu = process.cpuUsage(this.cpu);
    this.busy.active += elu.active;
    this.busy.idle += elu.idle;
    this.busy.cpuUs += cpu.user + cpu.system;
  }

  /** This process's CPU (ms) per command since `clear`. */
  cpuPerCommand(commands: number): number {
    return this.busy.cpuUs / 1000 / (commands || 1);
  }

  /** What was measured since `clear`, as lines to print; `commands` = requests to Worklink. */
  report(commands: number): string[] {
    const { active, idle, cpuUs } = this.busy;
    const d = (p: number) => (this.delay.percentile(p) / 1e6).toFixed(1);
    const lines = [
      `  event loop: busy ${((100 * active) / (active + idle || 1)).toFixed(0)} %, delay p50 ${d(50)} ms p99 ${d(99)} ms; CPU ${(cpuUs / 1000 / commands).toFixed(2)} ms per command (${this.whose})`,
    ];
    for (const [to, total] of this.outTotal) {
      const q = this.outQueued.get(to);
      const queued = q ? `, waiting for a connection p50 ${fmt(q, 50)} p99 ${fmt(q, 99)}` : '';
      lines.push(
        `  out → ${to.padEnd(24)} n=${String(total.length).padEnd(5)} p50 ${fmt(total, 50)} p99 ${fmt(total, 99)}${queued}`,
      );
    }
    for (const [server, t] of this.inServer) {
      lines.push(
        `  in  ← ${server.padEnd(24)} n=${String(t.length).padEnd(5)} p50 ${fmt(t, 50)} p99 ${fmt(t, 99)} (head to answer's end)`,
      );
    }
    const perCommand = [...this.calls]
      .sort((a, b) => b[1] - a[1])
      .map(([what, n]) => `${(n / commands).toFixed(2)} ${what}`);
    if (perCommand.length > 0) lines.push(`  calls per command: ${perCommand.join('; ')}`);
    if (this.storeCalls.size > 0) {
      const store = [...this.storeCalls]
        .sort((a, b) => b[1] - a[1])
        .map(([what, n]) => `${(n / commands).toFixed(2)} ${what}`);
      lines.push(`  store calls per command: ${store.join('; ')}`);
    }
    return lines;
  }

  /**
   * Counts the calls of every table method of `store` (wrapped in place, so every user of the
   * store is counted): the SQLite reads and writes a command costs.
   */
  countStoreCalls(store: object): void {
    for (const [table, methods] of Object.entries(store)) {
      if (typeof methods !== 'object' || methods === null) continue;
      for (const [name, fn] of Object.entries(methods)) {
        if (typeof fn !== 'function') continue;
        const key = `${table}.${name}`;
        Reflect.set(methods, name, (...args: unknown[]) => {
          this.storeCalls.set(key, (this.storeCalls.get(key) ?? 0) + 1);
          return Reflect.apply(fn, methods, args);
        });
      }
    }
  }

  stop(): void {
    for (const u of this.unsubscribe) u();
    this.delay.disable();
  }
}

function push(m: Map<string, Samples>, k: string, v: number) {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

function fmt(samples: Samples, p: number): string {
  const s = [...samples].sort((a, b) => a - b);
  const v = s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? 0;
  return `${v.toFixed(1).padStart(6)} ms`;
}
