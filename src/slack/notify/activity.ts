/**
 * The task activity hub (`deps.activity`): whatever happens to a task through Worklink or
 * seen by it (created, assigned, commented, completed, reopened) is emitted here once, and
 * each listener (assignee DMs, channel feeds) decides what to tell whom. `emit` never throws
 * and never blocks its caller: listeners run in the background and their failures are logged.
 */
import type { Logger } from '@slack/bolt';

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
      added: string[] /* service user ids */;
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
  | { kind: 'completed' | 'reopened'; taskId: string; projectId?: string; actor?: Actor };

export type ActivityListener = (teamId: string, activity: TaskActivity) => void | Promise<void>;

export interface TaskActivityHub {
  on(listener: ActivityListener): void;
  emit(teamId: string, activity: TaskActivity): void;
}

export function createActivityHub(logger: Pick<Logger, 'warn'>): TaskActivityHub {
  const listeners: ActivityListener[] = [];
  return {
    on(listener) {
      listeners.push(listener);
    },
    emit(teamId, activity) {
      for (const listener of listeners) {
        // Next tick: the caller's ack and reply are never held up by a listener.
        setImmediate(() => {
          Promise.resolve()
            .then(() => listener(teamId, activity))
            .catch((e: unknown) =>
              logger.warn(
                `Task activity (${activity.kind} ${activity.taskId}): a listener failed: ${(e as Error)?.message ?? e}`,
              ),
            );
        });
      }
    },
  };
}
