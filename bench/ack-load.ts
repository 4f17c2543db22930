/**
 * bench:ack's load generator, a worker thread of the Slack side (bench/ack-slack-side.ts):
 * building and signing the bursts' requests on a loop of its own, so that neither the
 * servers under test nor the fake Slack's answers wait behind it, and its ack timings are not
 * delayed by their work.
 */
import { randomUUID } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { SlackRequests } from '../test/support/slack-requests.js';

/** One burst, as asked by the Slack side. */
export interface BurstOrder {
  url: string;
  signingSecret: string;
  responseBase: string;
  users: string[];
  concurrency: number;
  /** Command texts, used in turn; `{id}` stands for the request's id. */
  commands: string[];
}

export interface BurstResult {
  /** Ack latency of each request, ms. */
  acks: number[];
  /** response_url id → when the request was sent (epoch ms, sub-ms precision). */
  sent: Record<string, number>;
}

const now = () => performance.timeOrigin + performance.now();

async function burst(order: BurstOrder): Promise<BurstResult> {
  // The request's id is its response_url's, and stands for `{id}` in the command's text (the
  // title of a `/work add`, whose confirmation is its card in the channel, not a reply).
  let nextId = '';
  const slack = new SlackRequests({
    url: order.url,
    signingSecret: order.signingSecret,
    responseUrl: () => `${order.responseBase}/response/${nextId}`,
  });
  const acks: number[] = [];
  const sent: Record<string, number> = {};
  await Promise.all(
    Array.from({ length: order.concurrency }, async (_, i) => {
      const id = randomUUID();
      const text = order.commands[i % order.commands.length]!.replace('{id}', id);
      const started = now();
      nextId = id; // read synchronously by slashCommand
      const res = await slack.slashCommand(text, { userId: order.users[i % order.users.length] });
      if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
      acks.push(now() - started);
      sent[id] = started;
    }),
  );
  return { acks, sent };
}

parentPort?.on('message', (order: BurstOrder) => {
  burst(order).then(
    (r) => parentPort?.postMessage({ ok: true, ...r }),
    (e) => parentPort?.postMessage({ ok: false, error: String(e) }),
  );
});
