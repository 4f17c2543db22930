/**
 * Keeps every message Worklink posted about a task current. `taskChanged(teamId, taskId)` is
 * the one door: the Slack listeners call it after an edit, completion, reopening, comment or
 * assignment, and the watcher / task index may call it when they see a change made elsewhere.
 * It returns at once (never blocks an ack); a small queue then reads the task once and
 * chat.update-s each remembered message (src/store/tables/task-messages/), paced per team so a
 * burst stays inside Slack's chat.update limit (Tier 3, about 50 a minute), pausing on 429.
 * A message that can no longer be updated is forgotten after that one failure.
 */
import type { Logger } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { ChangeHint, LiveRefresh } from '../../activity/seen.js';
import type { TaskMessage, TaskMessagesStore } from '../../store/index.js';
import type { LiveMessage } from '../tasks/card/live-view.js';
import { fitMessage } from '../ui/limits.js';

/** Errors after which a message can never be updated: it is forgotten. */
const GONE = new Set([
  'message_not_found',
  'channel_not_found',
  'cant_update_message',
  'not_in_channel',
  'is_archived',
  'edit_window_closed',
  'account_inactive',
  'token_revoked',
]);

export interface LiveUpdatesOptions {
  messages: TaskMessagesStore;
  logger: Logger;
  /** The team's bot client, or undefined when the team has none any more. */
  slackFor(teamId: string): Promise<WebClient | undefined>;
  /**
   * The rendering of each message of the task as it is now; 'gone' when the service no
   * longer has the task (its messages are then left as they are).
   */
  render(
    teamId: string,
    taskId: string,
    messages: TaskMessage[],
    hint: ChangeHint,
  ): Promise<Map<TaskMessage, LiveMessage> | 'gone'>;
  /** Updates allowed at once per team before pacing starts (default 10). */
  burst?: number;
  /** Then one update per this many ms per team (default 1,200: 50 a minute). */
  intervalMs?: number;
}

interface Job {
  teamId: string;
  taskId: string;
  hint: ChangeHint;
}

export class LiveUpdates implements LiveRefresh {
  private readonly queue = new Map<string, Job>();
  /** Tasks whose refresh is under way (`team:task`). */
  private readonly refreshing = new Set<string>();
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  /** Per team: no update before this time (a 429's Retry-After). */
  private readonly pausedUntil = new Map<string, number>();
  private running: Promise<void> | undefined;
  /** taskChanged calls still reading the store. */
  private readonly checking = new Set<Promise<void>>();
  private stopped = false;
  private readonly burst: number;
  private readonly intervalMs: number;

  constructor(private readonly o: LiveUpdatesOptions) {
    this.burst = o.burst ?? 10;
    this.intervalMs = o.intervalMs ?? 1_200;
  }

  /** Looks for the task's messages in the background (idle() waits for that too). */
  taskChanged(teamId: string, taskId: string, hint: ChangeHint = {}): void {
    if (this.stopped || !teamId || !taskId) return;
    // A refresh of this task under way is reading it now: a change seen by that very read
    // (the task index tells it) needs no second refresh.
    const hinted = hint.number !== undefined || hint.statusId !== undefined;
    if (this.refreshing.has(`${teamId}:${taskId}`) && !hinted) return;
    const checking: Promise<void> = this.check(teamId, taskId, hint).finally(() =>
      this.checking.delete(checking),
    );
    this.checking.add(checking);
  }

  private async check(teamId: string, taskId: string, hint: ChangeHint): Promise<void> {
    try {
      if (hint.number !== undefined) await this.o.messages.setNumber(teamId, taskId, hint.number);
      // Nothing posted about it: nothing to do (the common case for tasks made elsewhere).
      if ((await this.o.messages.forTask(teamId, taskId)).length === 0) return;
    } catch (e) {
      this.o.logger.warn(`Live messages: could not read task ${taskId}: ${(e as Error).message}`);
      return;
    }
    // A task already waiting is refreshed once, with what it is by then.
    this.queue.set(`${teamId}:${taskId}`, { teamId, taskId, hint });
    this.kick();
  }

  private kick(): void {
    if (this.running || this.stopped) return;
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (this.queue.size) this.kick();
    });
  }

  /** Resolves when nothing is queued or running (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running || this.checking.size) {
      await Promise.all([...this.checking]);
      await this.running;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.queue.clear();
    await this.idle();
  }

  private async drain(): Promise<void> {
    while (this.queue.size && !this.stopped) {
      const [key, job] = this.queue.entries().next().value as [string, Job];
      this.queue.delete(key);
      try {
        await this.refresh(job);
      } catch (e) {
        if (this.stopped) return;
        this.o.logger.warn(
          `Live messages: refreshing task ${job.taskId} failed: ${(e as Error).message}`,
        );
      }
    }
  }

  private async refresh(job: Job): Promise<void> {
    const key = `${job.teamId}:${job.taskId}`;
    this.refreshing.add(key);
    try {
      await this.refreshNow(job);
    } finally {
      this.refreshing.delete(key);
    }
  }

  private async refreshNow({ teamId, taskId, hint }: Job): Promise<void> {
    const slack = await this.o.slackFor(teamId);
    const messages = await this.o.messages.forTask(teamId, taskId);
    if (!slack || messages.length === 0) return;
    const rendered = await this.o.render(teamId, taskId, messages, hint);
    if (rendered === 'gone') return;
    for (const m of messages) {
      const view = rendered.get(m);
      if (!view || this.stopped) continue;
      await this.update(slack, m, view);
    }
  }

  /** One chat.update, paced; a 429 waits its Retry-After and tries that message again. */
  private async update(slack: WebClient, m: TaskMessage, view: LiveMessage): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      await this.take(m.teamId);
      try {
        await slack.chat.update({ channel: m.channelId, ts: m.ts, ...fitMessage(view) });
        return;
      } catch (e) {
        const err = e as { code?: string; data?: { error?: string }; retryAfter?: number };
        if (err.code === 'slack_webapi_rate_limited_error') {
          this.pausedUntil.set(m.teamId, Date.now() + (err.retryAfter ?? 1) * 1000);
          continue;
        }
        const code = err.data?.error ?? (e as Error).message;
        if (GONE.has(code)) {
          await this.o.messages.forget(m.teamId, m.channelId, m.ts);
          this.o.logger.info(
            `Live messages: forgot ${m.kind} ${m.channelId}/${m.ts} of task ${m.taskId} (${code}).`,
          );
        } else {
          this.o.logger.warn(
            `Live messages: could not update ${m.channelId}/${m.ts} of task ${m.taskId}: ${code}`,
          );
        }
        return;
      }
    }
  }

  /**
   * Token bucket per team: `burst` at once, then one per `intervalMs`. Waits in short slices,
   * so stopping the app is not held up by a long Retry-After.
   */
  private async take(teamId: string): Promise<void> {
    for (;;) {
      if (this.stopped) throw new Error('live messages stopped');
      const now = Date.now();
      const paused = (this.pausedUntil.get(teamId) ?? 0) - now;
      if (paused > 0) {
        await sleep(Math.min(paused, SLICE_MS));
        continue;
      }
      const b = this.buckets.get(teamId) ?? { tokens: this.burst, at: now };
      b.tokens = Math.min(this.burst, b.tokens + (now - b.at) / this.intervalMs);
      b.at = now;
      this.buckets.set(teamId, b);
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return;
      }
      await sleep(Math.min(Math.ceil((1 - b.tokens) * this.intervalMs), SLICE_MS));
    }
  }
}

const SLICE_MS = 250;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
