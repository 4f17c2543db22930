/**
 * CPU profiles of the measured rows only (not start-up or warm-up), for bench:ack: with
 * BENCH_CPU_PROF=<dir>, each row's rounds (Worklink's bursts, and bare Bolt's, which cost
 * little and show as Bolt's frames) are profiled through the inspector and written to <dir>
 * as a .cpuprofile (open it in Chrome DevTools); the row's report lists the top self-time
 * frames.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

export class BurstProfiler {
  private session: Session | undefined;
  private readonly self = new Map<string, number>();
  private totalUs = 0;
  private count = 0;

  constructor(private readonly dir: string | undefined) {}

  get enabled(): boolean {
    return Boolean(this.dir);
  }

  async start(): Promise<void> {
    if (!this.dir) return;
    if (!this.session) {
      this.session = new Session();
      this.session.connect();
      await this.session.post('Profiler.enable');
      await this.session.post('Profiler.setSamplingInterval', { interval: 200 });
    }
    await this.session.post('Profiler.start');
  }

  async stop(name: string): Promise<void> {
    if (!this.dir || !this.session) return;
    const { profile } = await this.session.post('Profiler.stop');
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(join(this.dir, `${name}-${++this.count}.cpuprofile`), JSON.stringify(profile));
    this.add(profile);
  }

  /** Forgets the frames counted so far (a new row). */
  clear(): void {
    this.self.clear();
    this.totalUs = 0;
  }

  /** The top self-time frames since `clear`, idle and GC apart, as lines to print. */
  top(n = 15): string[] {
    if (!this.dir) return [];
    // Idle, and the profiler's own start (it lists all compiled code first).
    const busy = [...this.self].filter(
      ([k]) => !k.startsWith('(idle)') && !k.startsWith('dispatch :'),
    );
    const busyUs = busy.reduce((a, [, v]) => a + v, 0);
    const lines = [
      `  top self-time frames (BENCH_CPU_PROF, ${(busyUs / 1000).toFixed(0)} ms busy of ${(this.totalUs / 1000).toFixed(0)} ms profiled):`,
    ];
    for (const [k, v] of busy.sort((a, b) => b[1] - a[1]).slice(0, n)) {
      lines.push(
        `    ${(v / 1000).toFixed(1).padStart(7)} ms ${((100 * v) / (busyUs || 1)).toFixed(1).padStart(5)} %  ${k}`,
      );
    }
    return lines;
  }

  async close(): Promise<void> {
    this.session?.disconnect();
  }

  private add(profile: Profile): void {
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const samples = profile.samples ?? [];
    const deltas = profile.timeDeltas ?? [];
    for (let i = 0; i < samples.length; i++) {
      const frame = byId.get(samples[i] ?? -1)?.callFrame;
      const d = deltas[i] ?? 0;
      this.totalUs += d;
      if (!frame) continue;
      const where = frame.url
        .replace(/^.*node_modules\//, '')
        .replace(/^file:\/\/.*?\/(src|bench|test)\//, '$1/');
      const key = `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`;
      this.self.set(key, (this.self.get(key) ?? 0) + d);
    }
  }
}
