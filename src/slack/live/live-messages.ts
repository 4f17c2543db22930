/**
 * The live-messages part of a running Worklink: LiveUpdates (the queue, live-updates.ts)
 * given a renderer that reads the task with the team's connection and draws each remembered
 * message (tasks/card/live-view.ts). Built by start/worklink.ts, held in `deps.live`, stopped
 * by start/lifecycle.ts. The watcher and the task index call `deps.live.taskChanged`.
 */
import type { Logger } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { ChangeHint, LiveRefresh } from '../../activity/seen.js';
import type { LongLivedPart } from '../../long-lived-part.js';
import type { Store } from '../../store/index.js';
import { isWorkApiError } from '../../workapi/client.js';
import type { WorklinkDeps } from '../context/deps.js';
import { buildWorkContext } from '../context/work-context.js';
import { liveMessage } from '../tasks/card/live-view.js';
import { taskCardData } from '../tasks/card/load.js';
import { factsFromTask } from '../tasks/facts.js';
import { LiveUpdates } from './live-updates.js';

export interface LiveMessages extends LiveRefresh, LongLivedPart {
  /** Resolves when every queued refresh is done (tests). */
  idle(): Promise<void>;
}

export interface LiveMessagesDeps {
  store: Store;
  logger: Logger;
  /** The team's bot client for background calls (Notifications.slackFor). */
  slackFor(teamId: string): Promise<WebClient | undefined>;
  /** The app's deps, once built (rendering reads tasks with the team's connection). */
  deps(): WorklinkDeps;
}

export function createLiveMessages({
  store,
  logger,
  slackFor,
  deps,
}: LiveMessagesDeps): LiveMessages {
  const updates = new LiveUpdates({
    messages: store.taskMessages,
    logger,
    slackFor,
    async render(teamId, taskId, messages, hint: ChangeHint) {
      const slack = await slackFor(teamId);
      if (!slack) return 'gone';
      const ctx = await buildWorkContext(deps(), { teamId, userId: '', slack });
      if (!ctx.connection) return 'gone';
      let task: Awaited<ReturnType<typeof ctx.work.getTask>>;
      try {
        task = await ctx.work.getTask(taskId);
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
