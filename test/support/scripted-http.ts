/**
 * A local HTTP server that answers each request as a script says: for WorkClient tests that
 * need answers no real service gives on demand (5xx, 429, odd bodies, HTML pages).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}
/** `body`: a string is sent as is, anything else as JSON; `contentType` default JSON. */
export type Reply = {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
};
export type Script = (req: Seen, n: number) => Reply;

export interface ScriptedServer {
  origin: string;
  /** Requests seen since the last `reset`. */
  seen: Seen[];
  script: Script;
  reset(): void;
  close(): Promise<void>;
}

export async function startScriptedServer(): Promise<ScriptedServer> {
  const state: ScriptedServer = {
    origin: '',
    seen: [],
    script: () => ({ status: 200, body: {} }),
    reset() {
      state.seen = [];
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  const server: Server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
    state.seen.push(entry);
    const reply = state.script(entry, state.seen.length);
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {}));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
