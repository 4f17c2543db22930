/**
 * The task activity hub (`deps.activity`): the one place where "something happened to a task"
 * is announced — by the forms, commands, buttons, shortcuts and the watcher / index refresh —
 * and heard by whoever cares (the per-person DMs, the channel feeds). Emitters never wait for
 * listeners and never see their failures: a notification that fails must not fail the edit.
 */
import type { Logger } from '@slack/bolt';
import { errMessage } from '../error-message.js';

export type ChangedField = 'name' | 'dueDate' | 'priority' | 'status' | 'unassigned' | 'group';

/** One field's change (src/sync/seen-change.ts tells them); people removed carry `people` (service user ids). */
export interface FieldChange {
  field: ChangedField;
  from?: string | number;
  to?: string | number;
  people?: string[];
}

export interface Actor {
  slackUserId?: string;
  serviceUserId?: string;
  name?: string;
}

export type TaskActivity =
  | {
      kind: 'created';
      taskId: string;
      projectId?: string;
      actor?: Actor;
      assigneeIds: string[];
      /** the Slack message it was made from (shortcut), when there is one */
      source?: { channel: string; ts: string };
    }
  | {
      kind: 'assigned';
      taskId: string;
      projectId?: string;
      actor?: Actor;
      /** service user ids */
      added: string[];
      where?: string;
    }
  | {
      kind: 'commented';
      taskId: string;
      projectId?: string;
      actor?: Actor;
      text: string;
      commentId?: string;
      /** set when the comment came from a feed thread reply (never echoed back there) */
      fromThread?: { channel: string; ts: string };
    }
  | {
      kind: 'completed' | 'reopened';
      taskId: string;
      projectId?: string;
      actor?: Actor;
      /** Seen rather than made: where it happened when nobody is named ("in the service"). */
      where?: string;
    }
  | {
      /** Other fields changed (seen by a read or an event): told, never DMed. */
      kind: 'changed';
      taskId: string;
      projectId?: string;
      actor?: Actor;
      where?: string;
      fields: FieldChange[];
    };

export type ActivityListener = (teamId: string, activity: TaskActivity) => void | Promise<void>;

export interface TaskActivityHub {
  on(listener: ActivityListener): void;
  emit(teamId: string, activity: TaskActivity): void;
}

/** The hub plus `idle()`, which tests and the lifecycle use to wait for listeners to finish. */
export interface ActivityHub extends TaskActivityHub {
  /** Resolves once every listener started so far has finished (including ones they start). */
  idle(): Promise<void>;
}

export function createActivityHub(logger: Pick<Logger, 'warn'>): ActivityHub {
  const listeners: ActivityListener[] = [];
  const running = new Set<Promise<void>>();

  const run = async (listener: ActivityListener, teamId: string, activity: TaskActivity) => {
    // Let the emitter carry on first: a listener never runs inside the caller's turn.
    await Promise.resolve();
    try {
      await listener(teamId, activity);
    } catch (e) {
      logger.warn(
        `A task activity listener failed on ${activity.kind} ${activity.taskId}: ${errMessage(e)}`,
      );
    }
  };

  return {
    on(listener) {
      listeners.push(listener);
    },
    emit(teamId, activity) {
      for (const listener of listeners) {
        const p = run(listener, teamId, activity);
        running.add(p);
        void p.finally(() => running.delete(p));
      }
    },
    async idle() {
      while (running.size > 0) await Promise.all([...running]);
    },
  };
}
