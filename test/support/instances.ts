/**
 * Worklink instances as real processes (`node --import tsx src/main.ts start`, the production
 * start path) for the several-instances end-to-end test and bench:scale: each on its own
 * port, configured only through its environment, killed or stopped at will.
 *
 *   const a = await startInstance({ DATABASE_URL: url, SECRETS_KEY: key, … });
 *   await fetch(`${a.url}/healthz`);   a.kill('SIGKILL');   await a.exited;
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from './postgres.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Instance {
  /** http://127.0.0.1:<port> */
  url: string;
  /** Where Slack's signed requests go. */
  eventsUrl: string;
  pid: number;
  child: ChildProcess;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
  /** What it wrote to stderr and stdout (its log lines). */
  output(): string;
  /** SIGTERM, then waits for the exit (SIGKILL after 10 s). */
  stop(): Promise<void>;
}

/** Starts `worklink start` with `env` (PORT is picked) and waits until /healthz answers. */
export async function startInstance(env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'start'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`worklink start exited before it answered: ${out}`);
    }
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`worklink start did not answer within 60 s: ${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    eventsUrl: `${url}/slack/events`,
    pid: child.pid!,
    child,
    exited,
    output: () => out,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
