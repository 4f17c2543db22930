/**
 * Fires reminders, a long-lived part (start/lifecycle.ts). Every few seconds it takes the
 * reminders due by now (src/store/tables/reminders/), reads each task as it is then, and queues one
 * outbox DM per reminder (key `remind:<id>`, unique per team and person), so the outbox worker
 * sends it exactly once — across restarts (the row and the reminder are in the database) and
 * instances (the outbox's claims; a reminder two instances queue at once is still one row) —
 * and the DM gate holds it through its person's quiet hours (notify/dm-gate.ts). The row is
 * queued before the reminder is marked: a crash in between queues it again, harmlessly.
 */
import type { Logger } from '@slack/bolt';
import { errMessage } from '../../error-message.js';
import type { LongLivedPart } from '../../long-lived-part.js';
import { Periodic } from '../../periodic.js';
import type { Reminder, Store } from '../../store/index.js';
import type { WorkClient } from '../../workapi/client.js';
import { reminderMessage } from './message.js';

export interface ReminderDeps {
  store: Store;
  logger: Pick<Logger, 'debug' | 'warn'>;
  /** The team's WorkClient (the workspace key reads the task), or undefined. */
  workFor(teamId: string): Promise<WorkClient | undefined>;
  now?: () => number;
  intervalMs?: number;
}

/** The outbox key of a reminder's DM. */
export const reminderKey = (id: string) => `remind:${id}`;

export class ReminderScheduler implements LongLivedPart {
  readonly name = 'reminders';
  private readonly rounds: Periodic;

  constructor(private readonly deps: ReminderDeps) {
    this.rounds = new Periodic({
      name: 'Reminders',
      intervalMs: deps.intervalMs ?? 15_000,
      round: async () => {
        await this.runDue();
      },
      logger: deps.logger,
    });
  }

  start(): void {
    this.rounds.start();
  }

  stop(): Promise<void> {
    return this.rounds.stop();
  }

  /** Queues every reminder due now; returns how many were queued. */
  async runDue(): Promise<number> {
    const now = this.deps.now?.() ?? Date.now();
    let queued = 0;
    for (const r of await this.deps.store.reminders.due(now, 100)) {
      try {
        await this.queue(r, now);
        queued++;
      } catch (e) {
        this.deps.logger.warn(`Reminder ${r.id} was not queued (tried again): ${errMessage(e)}`);
      }
    }
    return queued;
  }

  private async queue(r: Reminder, now: number): Promise<void> {
    const { store } = this.deps;
    const work = await this.deps.workFor(r.teamId);
    const task = await work?.getTask(r.taskId).catch((e: unknown) => {
      this.deps.logger.debug(`Reminder ${r.id}: reading task ${r.taskId}: ${errMessage(e)}`);
      return undefined;
    });
    const known = await store.taskIndex.get(r.teamId, r.taskId);
    await store.outbox.enqueue(
      [
        {
          teamId: r.teamId,
          taskId: reminderKey(r.id),
          serviceUserId: `slack:${r.slackUserId}`,
          slackUserId: r.slackUserId,
          source: 'slack',
          taskName: task?.taskName ?? known?.name ?? '',
          projectId: task?.projectId ?? known?.projectId,
          message: JSON.stringify(
            reminderMessage(r.taskId, task, { name: known?.name, number: known?.number }),
          ),
        },
      ],
      'ignore',
      now,
    );
    await store.reminders.markQueued(r.id, now);
    store.outbox.changed();
  }
}
