/**
 * The live-messages part of a running Worklink: LiveUpdates (the queue, live-updates.ts)
 * given a renderer that reads the task with the team's connection and draws each remembered
 * message (tasks/card/live-view.ts). Built and stopped by src/slack/start; handlers reach it
 * through the `LiveRefresh` port (`deps.live`), called by the task-change owner and `seen`.
 */
import type { Logger } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { ChangeHint, LiveRefresh } from '../../activity/seen.js';
import type { LongLivedPart } from '../../long-lived-part.js';
import type { Store } from '../../store/index.js';
import { isWorkApiError, type WorkClient } from '../../workapi/client.js';
import type { Task } from '../../workapi/contract.js';
import type { ServiceDirectory } from '../context/service-directory.js';
import type { SlackMatcher } from '../context/slack-matcher.js';
import type { TeamReader } from '../context/team-scope.js';
import type { WorkLinks } from '../context/work-links.js';
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
  /** The team's WorkClient, or undefined when it has no usable connection. */
  workFor(teamId: string): Promise<WorkClient | undefined>;
  /** Who is who (the cards' assignees): the app's caches. */
  directory: ServiceDirectory;
  matcher: SlackMatcher;
  links: WorkLinks;
  /** One update per this many ms per team after a burst (LiveUpdates' default: 1,200). */
  intervalMs?: number;
}

export function createLiveMessages({
  store,
  logger,
  slackFor,
  workFor,
  directory,
  matcher,
  links,
  intervalMs,
}: LiveMessagesDeps): LiveMessages {
  const updates = new LiveUpdates({
    intervalMs,
    messages: store.taskMessages,
    logger,
    slackFor,
    async render(teamId, taskId, messages, hint: ChangeHint) {
      const [slack, work] = await Promise.all([slackFor(teamId), workFor(teamId)]);
      if (!slack || !work) return 'gone';
      const ctx: TeamReader = {
        teamId,
        work,
        store,
        logger,
        slack,
        deps: { directory, matcher, links },
      };
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
