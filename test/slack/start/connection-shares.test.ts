/**
 * A burst of real requests is never taken for a slow-header flood, even when Worklink's
 * event loop stalls while it arrives (a busy 2-core machine at 200 concurrent commands):
 * connections whose request heads are already waiting to be read are not stale, so newcomers
 * from the same address are not closed because of them. Real sockets; the clients run in a
 * worker thread, so they go on while this thread is stalled.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ConnectionShares } from '../../../src/slack/start/connection-limits.js';

/** Opens `first` connections; on 'send', opens `more` that send a head, then sends the first ones'. */
const CLIENTS = `
const { parentPort, workerData } = require('node:worker_threads');
const { connect } = require('node:net');
const { port, first, more } = workerData;
const results = [];
const request = (socket) => new Promise((resolve) => {
  let data = '';
  socket.on('data', (c) => { data += c; if (/^HTTP\\/1\\.1 \\d{3}/.test(data)) resolve(Number(data.slice(9, 12))); });
  socket.on('error', () => undefined);
  socket.on('close', () => resolve(0));
  socket.write('GET / HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n');
});
const open = () => new Promise((resolve) => {
  const s = connect({ port, host: '127.0.0.1' });
  s.on('error', () => undefined);
  s.once('connect', () => resolve(s));
  s.once('close', () => resolve(s));
});
(async () => {
  const opened = await Promise.all(Array.from({ length: first }, open));
  parentPort.postMessage('opened');
  await new Promise((r) => parentPort.once('message', r));
  // Newcomers first, then the heads of the connections already open: the listening socket
  // is ready before their heads are, as when a burst keeps coming.
  const answers = [];
  for (let i = 0; i < more; i++) answers.push(open().then(request));
  await new Promise((r) => setTimeout(r, 50));
  answers.push(...opened.map(request));
  parentPort.postMessage(await Promise.all(answers));
})();
`;

let server: Server;
let shares: ConnectionShares;
beforeAll(async () => {
  shares = new ConnectionShares({
    maxConnections: 256,
    perAddressConnections: 4,
    reservedConnections: 8,
    staleMs: 200,
  });
  server = createServer((_req, res) => res.end('ok'));
  shares.attach(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Keeps this thread busy (as 200 commands at once do) for `ms`. */
function stall(ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy
  }
}

it('answers every request of a burst that arrived while the event loop stalled', async () => {
  const { port } = server.address() as AddressInfo;
  const first = 12;
  const worker = new Worker(CLIENTS, { eval: true, workerData: { port, first, more: 12 } });
  try {
    await once(worker, 'message'); // 'opened'
    while (shares.open < first) await new Promise((r) => setTimeout(r, 5));
    const answered = once(worker, 'message');
    worker.postMessage('send');
    // The heads and the newcomers arrive while this thread cannot read them.
    stall(600);
    const [statuses] = (await answered) as [number[]];
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(shares.refused).toEqual({ perAddress: 0, full: 0, evicted: 0 });
  } finally {
    await worker.terminate();
  }
});
