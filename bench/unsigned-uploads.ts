/**
 * Memory pinned by unauthenticated clients: N connections each POST an unsigned 4 MiB body
 * to /slack/events, as fast as the server reads it. Against Worklink (HTTP mode, embedded
 * service, fake Slack) and, in the same run, a bare Bolt app with Bolt's defaults (what
 * Worklink was before its HTTP guard). Each server runs in its own process, so its resident
 * memory (VmRSS) is its own. Prints baseline and peak RSS, the growth and its ratio, and how
 * many uploads got an answer (the rest were closed unanswered, e.g. past the connection cap).
 *
 * Then the slow-header flood (issue 24, finding 4): one client address holds --flood sockets
 * that never finish their request head, reconnecting as they are closed, while 50 properly
 * signed `/work help` commands come from another address; prints how many were answered 200.
 *
 *   npm run bench:uploads [-- --connections 300 --mib 4 --seconds 5 --flood 300]
 */
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { parseArgs } from 'node:util';
import { App, HTTPReceiver } from '@slack/bolt';
import { SIGNING_SECRET } from '../test/support/harness.js';
import { SlackRequests } from '../test/support/slack-requests.js';

const BARE_SECRET = 'bare-signing-secret';

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
    const receiver = new HTTPReceiver({ signingSecret: BARE_SECRET });
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

async function flood(kind: Kind, sockets: number): Promise<{ ok: number; of: number }> {
  const child = fork(new URL(import.meta.url).pathname, ['--serve', kind], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  });
  const { url } = await new Promise<{ url: string }>((resolve) => child.once('message', resolve));
  const port = Number(new URL(url).port);
  let flooding = true;
  let open = 0;
  // One client (127.0.0.2) keeps `sockets` connections that never finish their head.
  const hold = async () => {
    while (flooding) {
      if (open >= sockets) {
        await new Promise((r) => setTimeout(r, 10));
        continue;
      }
      open++;
      const socket = connect({ port, host: '127.0.0.1', localAddress: '127.0.0.2' });
      socket.on('error', () => undefined);
      socket.once('close', () => open--);
      socket.once('connect', () =>
        socket.write('POST /slack/events HTTP/1.1\r\nhost: 127.0.0.1\r\nx-slow: 1\r\n'),
      );
      await new Promise((r) => setImmediate(r));
    }
  };
  const holder = hold();
  await new Promise((r) => setTimeout(r, 1_000));
  const slack = new SlackRequests({
    url: `${url}/slack/events`,
    signingSecret: kind === 'bolt' ? BARE_SECRET : SIGNING_SECRET,
  });
  let ok = 0;
  const of = 50;
  await Promise.all(
    Array.from({ length: of }, async () => {
      const res = await slack.slashCommand('help').catch(() => undefined);
      if (res?.status === 200) ok++;
    }),
  );
  flooding = false;
  await holder;
  child.kill();
  return { ok, of };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      serve: { type: 'string' },
      connections: { type: 'string', default: '300' },
      mib: { type: 'string', default: '4' },
      seconds: { type: 'string', default: '5' },
      flood: { type: 'string', default: '300' },
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
  const sockets = Number(values.flood);
  console.log(
    `\nSlow-header flood: one address holds ${sockets} unfinished request heads (reconnecting); 50 signed /work help from another. Aim: all 50 answered.`,
  );
  for (const kind of ['bolt', 'worklink'] as const) {
    const r = await flood(kind, sockets);
    console.log(
      `${kind === 'bolt' ? 'bare Bolt (floor)' : 'Worklink        '}  signed requests answered 200: ${r.ok}/${r.of} (${((r.ok / r.of) * 100).toFixed(0)} %)`,
    );
  }
}

await main();
