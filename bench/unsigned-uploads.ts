/**
 * Memory pinned by unauthenticated clients: N connections each POST an unsigned 4 MiB body
 * to /slack/events, as fast as the server reads it. Against Worklink (HTTP mode, embedded
 * service, fake Slack) and, in the same run, a bare Bolt app with Bolt's defaults (what
 * Worklink was before its HTTP guard). Each server runs in its own process, so its resident
 * memory (VmRSS) is its own. Prints baseline and peak RSS, the growth and its ratio, and how
 * many uploads got an answer (the rest were closed unanswered, e.g. past the connection cap).
 *
 *   npm run bench:uploads [-- --connections 300 --mib 4 --seconds 5]
 */
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { parseArgs } from 'node:util';
import { App, HTTPReceiver } from '@slack/bolt';

type Kind = 'worklink' | 'bolt';

// ── Child: one server ────────────────────────────────────────────────────────

async function serve(kind: Kind): Promise<void> {
  let url: string;
  if (kind === 'worklink') {
    const { startHarness } = await import('../test/support/harness.js');
    const h = await startHarness();
    url = h.worklink.url;
    // Its temporary DATA_DIR goes with it.
    process.once('SIGTERM', () => void h.stop().finally(() => process.exit(0)));
  } else {
    const receiver = new HTTPReceiver({ signingSecret: 'bare-signing-secret' });
    const app = new App({ token: 'xoxb-bare', receiver, botId: 'B1', botUserId: 'U1' });
    app.command('/work', async ({ ack }) => ack());
    const server = (await app.start(0)) as Server;
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  process.send?.({ url });
}

// ── Parent: the uploads ──────────────────────────────────────────────────────

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

interface Result {
  baseline: number;
  peak: number;
  answered: number;
}

async function run(kind: Kind, connections: number, mib: number, seconds: number): Promise<Result> {
  const child = fork(new URL(import.meta.url).pathname, ['--serve', kind], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  });
  const { url } = await new Promise<{ url: string }>((resolve) => child.once('message', resolve));
  const { port } = new URL(url);
  await new Promise((r) => setTimeout(r, 500));
  const pid = child.pid!;
  const baseline = rssMiB(pid);
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMiB(pid));
  }, 50);

  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const total = mib * 1024 * 1024;
  let answered = 0;
  const sockets = Array.from({ length: connections }, () => {
    const socket = connect(Number(port), '127.0.0.1');
    let sent = 0;
    const pump = () => {
      while (sent < total && !socket.destroyed) {
        sent += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
    };
    socket.on('connect', () => {
      socket.write(
        `POST /slack/events HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${total}\r\n\r\n`,
      );
      pump();
    });
    socket.once('data', () => answered++);
    socket.on('error', () => undefined);
    return socket;
  });
  await new Promise((r) => setTimeout(r, seconds * 1000));
  clearInterval(sampler);
  for (const s of sockets) s.destroy();
  child.kill();
  return { baseline, peak, answered };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      serve: { type: 'string' },
      connections: { type: 'string', default: '300' },
      mib: { type: 'string', default: '4' },
      seconds: { type: 'string', default: '5' },
    },
  });
  if (values.serve) return serve(values.serve as Kind);
  const connections = Number(values.connections);
  const mib = Number(values.mib);
  const seconds = Number(values.seconds);
  console.log(
    `${connections} unsigned uploads of ${mib} MiB each to /slack/events, watched for ${seconds} s`,
  );
  const rows: [string, Result][] = [];
  for (const kind of ['bolt', 'worklink'] as const)
    rows.push([kind, await run(kind, connections, mib, seconds)]);
  for (const [kind, r] of rows) {
    console.log(
      `${kind === 'bolt' ? 'bare Bolt (floor)' : 'Worklink        '}  RSS ${r.baseline.toFixed(0)} → peak ${r.peak.toFixed(0)} MiB (+${(r.peak - r.baseline).toFixed(0)}), answered ${r.answered}/${connections}`,
    );
  }
  const [bolt, worklink] = [rows[0]![1], rows[1]![1]];
  const growth = (r: Result) => Math.max(1, r.peak - r.baseline);
  console.log(
    `Memory growth, bare Bolt / Worklink: ${(growth(bolt) / growth(worklink)).toFixed(1)}×`,
  );
}

await main();
