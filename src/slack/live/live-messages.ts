import type { ChangeHint, LiveRefresh } from '../../activity/seen.js';
import type { LongLivedPart } from '../../long-lived-part.js';
import { isWorkApiError } from '../../workapi/client.js';
import type { Task } from '../../workapi/contract.js';
import { type TeamReaders, teamReader } from '../context/team-scope.js';
import { liveMessage } from '../tasks/card/live-view.js';
import { taskCardData } from '../tasks/card/load.js';
import { factsFromTask } from '../tasks/facts.js';
import { LiveUpdates } from './live-updates.js';

export interface LiveMessages extends LiveRefresh, LongLivedPart {
  /** Resolves when every queued refresh is done (tests). */
  idle(): Promise<void>;
}

export interface LiveMessagesDeps extends TeamReaders {
  /** One update per this many ms per team after a burst (LiveUpdates' default: 1,200). */
  intervalMs?: number;
}

export function createLiveMessages(readers: LiveMessagesDeps): LiveMessages {
  const { store, logger, slackFor, intervalMs } = readers;
  const updates = new LiveUpdates({
    intervalMs,
    messages: store.taskMessages,
    logger,
    slackFor,
    async render(teamId, taskId, messages, hint: ChangeHint) {
      const ctx = await teamReader(readers, teamId);
      if (!ctx) return 'gone';
      const { work } = ctx;
      let task: Task;
      try {
        task = await work.getTask(taskId);
      } catch (e) {
        if (isWorkApiError(e) && e.kind === 'not_found') return 'gone';
        throw e;
      }
      const number =
        hint.number ??
        messages.find((m) => m.number !== undefined)?.number ??
        (await store.taskIndex.get(teamId, taskId))?.number ??
        undefined;
      const data = await taskCardData(ctx, {
        ...factsFromTask(task),
        number,
        // Get task has only a done flag; the status the caller just set names it.
        statusId: hint.statusId,
      });
      return new Map(messages.map((m) => [m, liveMessage({ kind: m.kind, data, actor: m.actor })]));
    },
  });
  return {
    name: 'live messages',
    taskChanged: (teamId, taskId, hint) => updates.taskChanged(teamId, taskId, hint),
    idle: () => updates.idle(),
    start() {},
    stop: () => updates.stop(),
  };
}
