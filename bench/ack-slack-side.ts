/**
 * bench:ack's other side: what in production is not Worklink's — the work-management service
 * (the embedded one, seeded with the demo workspace), Slack (the fake Web API and the
 * response_url receiver) and the people typing (the load generator, bench/ack-load.ts, a
 * worker thread here). By default it runs in a CHILD PROCESS of its own (`spawnSlackSide`), so
 * its CPU and event loop are not counted as Worklink's, as in production where the service and
 * Slack are remote; `startSlackSide` runs the same code in the bench's own process (its
 * `--in-process` flag, how bench:ack measured until round 5).
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { seedDemoWorkspace, startService } from '../src/service/index.js';
import { startFakeSlack } from '../test/support/fake-slack.js';
import { SLACK_USERS, TEAM_ID, waitFor } from '../test/support/harness.js';
import { SureWorkClient } from '../test/support/sure-work.js';
import type { BurstOrder, BurstResult } from './ack-load.js';
import { Breakdown } from './breakdown.js';

/** Where the other side's parts answer, and what the bench needs of the seed. */
export interface SlackSideInfo {
  /** The fake Slack's Web API base (WebClient's slackApiUrl). */
  apiUrl: string;
  /** Base of the response_urls the fake serves. */
  responseBase: string;
  serviceUrls: { baseUrl: string; altUrl: string };
  apiKey: string;
  workspaceName: string;
  projectId: string;
  firstTaskId: string;
  /** The demo people's Slack ids (commands are sent as each in turn). */
  users: string[];
  /** The process it runs in. */
  pid: number;
}

/** A burst asked of the other side: to `url`, signed with `signingSecret`. */
export type Burst = Omit<BurstOrder, 'responseBase' | 'users'>;

export interface BurstTimes {
  /** Ack latency of each request, ms. */
  acks: number[];
  /** With `follow`: ms from each request's send until its answer reached Slack. */
  replies: number[];
}

export interface SlackSide {
  info: SlackSideInfo;
  /** One burst; with `follow`, waits until every request's answer reached Slack. */
  burst(order: Burst, follow: boolean): Promise<BurstTimes>;
  /** The other side's own breakdown (its servers, its CPU and event loop), as bench:ack's. */
  clear(): Promise<void>;
  resume(): Promise<void>;
  pause(): Promise<void>;
  report(commands: number): Promise<string[]>;
  stop(): Promise<void>;
}

const ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/**
 * The other side in this process. `where`: what its breakdown calls its process; without it,
 * no breakdown of its own (in bench:ack's process, the bench's one sees everything).
 */
export async function startSlackSide(where?: string): Promise<SlackSide> {
  const dataDir = mkdtempSync(join(tmpdir(), 'worklink-bench-side-'));
  const fake = await startFakeSlack({ teamId: TEAM_ID, users: Object.values(SLACK_USERS) });
  const service = await startService({ dbPath: join(dataDir, 'service.db'), port: 0 });
  const seed = seedDemoWorkspace(service.db);
  const { projectId } = seed.projects[0]!;
  const work = new SureWorkClient({
    baseUrl: service.baseUrl,
    altUrl: service.altUrl,
    apiKey: seed.apiKey,
  });
  const [firstTask] = await work.listTasks({ projectId });
  const portOf = (url: string) => Number(new URL(url).port);
  const breakdown =
    where === undefined
      ? undefined
      : new Breakdown(
          new Map([
            [portOf(service.baseUrl), 'service'],
            [portOf(fake.apiUrl), 'fake Slack'],
          ]),
          `the service's, fake Slack's and the load generator's, in ${where}`,
        );
  // The load generator runs this side's worker file; tsx is registered there first.
  const loadUrl = new URL('./ack-load.ts', import.meta.url).href;
  const worker = new Worker(
    `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(loadUrl)}); });`,
    { eval: true },
  );
  const users = Object.values(SLACK_USERS).map((u) => u.id);
  const load = (order: BurstOrder) =>
    new Promise<BurstResult>((resolve, reject) => {
      worker.once('message', (reply: BurstResult & { ok: boolean; error?: string }) => {
        if (reply.ok) resolve(reply);
        else reject(new Error(reply.error));
      });
      worker.postMessage(order);
    });

  // When each request's answer reached Slack: a response_url post, or (`/work add`) the
  // task's card posted into the channel, found by the id in its title. Each recorded call is
  // read once (cursors into the fake's lists).
  const answered = new Map<string, number>();
  const seen = { responses: 0, calls: 0 };
  const note = (id: string, at: number) => {
    if (!answered.has(id)) answered.set(id, at);
  };
  const scan = () => {
    for (; seen.responses < fake.responses.length; seen.responses++) {
      const r = fake.responses[seen.responses]!;
      note(r.id, r.at);
    }
    for (; seen.calls < fake.calls.length; seen.calls++) {
      const c = fake.calls[seen.calls]!;
      if (c.method !== 'chat.postMessage') continue;
      for (const id of JSON.stringify(c.body).match(ID) ?? []) note(id, c.at);
    }
  };
  const followUps = async (sent: Record<string, number>) => {
    const ids = Object.keys(sent);
    await waitFor(
      () => {
        scan();
        return ids.every((id) => answered.has(id));
      },
      { timeoutMs: 60_000, intervalMs: 5 },
    );
    return ids.map((id) => answered.get(id)! - sent[id]!);
  };

  return {
    info: {
      apiUrl: fake.apiUrl,
      responseBase: fake.url,
      serviceUrls: { baseUrl: service.baseUrl, altUrl: service.altUrl },
      apiKey: seed.apiKey,
      workspaceName: seed.workspaceName,
      projectId,
      firstTaskId: firstTask!.taskId,
      users,
      pid: process.pid,
    },
    async burst(order, follow) {
      const r = await load({ ...order, responseBase: fake.url, users });
      const replies = follow ? await followUps(r.sent) : [];
      fake.reset();
      answered.clear();
      seen.responses = 0;
      seen.calls = 0;
      return { acks: r.acks, replies };
    },
    clear: async () => breakdown?.clear(),
    resume: async () => breakdown?.resume(),
    pause: async () => breakdown?.pause(),
    report: async (commands) => breakdown?.report(commands) ?? [],
    async stop() {
      breakdown?.stop();
      await worker.terminate();
      await service.close();
      await fake.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// ── The child process ────────────────────────────────────────────────────────

const CHILD_FLAG = '--bench-slack-side';

type Op =
  | { op: 'burst'; order: Burst; follow: boolean }
  | { op: 'report'; commands: number }
  | { op: 'clear' | 'resume' | 'pause' | 'stop' };
type Call = { id: number } & Op;
type Answer = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

const numbers = (v: unknown): number[] =>
  Array.isArray(v) ? v.filter((n): n is number => typeof n === 'number') : [];
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];

/** The other side in a child process (same execArgv as this one: tsx, --cpu-prof…). */
export async function spawnSlackSide(): Promise<SlackSide> {
  const child = fork(fileURLToPath(import.meta.url), [CHILD_FLAG], {
    execArgv: process.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let nextId = 1;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const info = await new Promise<SlackSideInfo>((resolve, reject) => {
    child.once('message', (m: { info: SlackSideInfo }) => resolve(m.info));
    child.once('exit', (code) => reject(new Error(`The Slack side exited (${code}).`)));
  });
  child.on('message', (m: Answer) => {
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.ok) w?.resolve(m.value);
    else w?.reject(new Error(m.error));
  });
  const call = (op: Op) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      child.send({ id, ...op });
    });
  return {
    info,
    async burst(order, follow) {
      const v = await call({ op: 'burst', order, follow });
      const times = typeof v === 'object' && v !== null ? v : {};
      return {
        acks: numbers(Reflect.get(times, 'acks')),
        replies: numbers(Reflect.get(times, 'replies')),
      };
    },
    clear: async () => void (await call({ op: 'clear' })),
    resume: async () => void (await call({ op: 'resume' })),
    pause: async () => void (await call({ op: 'pause' })),
    report: async (commands) => strings(await call({ op: 'report', commands })),
    async stop() {
      await call({ op: 'stop' });
      child.disconnect();
      await exited;
    },
  };
}

async function serveParent(send: (m: Answer | { info: SlackSideInfo }) => void): Promise<void> {
  const side = await startSlackSide(`a child process of its own (pid ${process.pid})`);
  const run = (m: Call): Promise<unknown> => {
    switch (m.op) {
      case 'burst':
        return side.burst(m.order, m.follow);
      case 'report':
        return side.report(m.commands);
      default:
        return side[m.op]();
    }
  };
  process.on('message', (m: Call) => {
    run(m).then(
      (value) => send({ id: m.id, ok: true, value }),
      (e: unknown) => send({ id: m.id, ok: false, error: String(e) }),
    );
  });
  process.once('disconnect', () => process.exit(0));
  send({ info: side.info });
}

if (process.argv.includes(CHILD_FLAG) && process.send) {
  const send = process.send.bind(process);
  serveParent(send).catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
