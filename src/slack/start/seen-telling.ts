/**
 * The team work clients, each feeding the task index with what it reads
 * (sync/task-sightings.ts), and what those reads and the service's events SAW changed told
 * once, as if made from Slack (sync/seen-comments.ts): the live messages refreshed and the
 * activity emitted. Built by start/parts.ts.
 */
import type { Logger } from '@slack/bolt';
import type { Actor } from '../../activity/hub.js';
import { type SeenParts, type SeenTaskChange, seenChange } from '../../activity/seen.js';
import type { AppConfig } from '../../config.js';
import { errMessage } from '../../error-message.js';
import type { Metrics } from '../../metrics/metrics.js';
import type { Store } from '../../store/index.js';
import { describeSeen } from '../../sync/seen-change.js';
import { commentMark, tellSeenComments } from '../../sync/seen-comments.js';
import { indexWorkClient } from '../../sync/task-sightings.js';
import { WorkClientCache, type WorkUrls } from '../context/work-clients.js';
import type { WorkLinks } from '../context/work-links.js';

/** `seenChange` bound to the parts it tells (the events receiver's `task.updated`). */
export function seenTelling(told: SeenParts) {
  return (teamId: string, change: SeenTaskChange, actor?: Actor) =>
    seenChange(told, teamId, change, actor);
}

export function teamWorkClients(o: {
  config: AppConfig;
  store: Store;
  logger: Logger;
  workUrls: WorkUrls;
  links: WorkLinks;
  metrics?: Metrics;
  told: SeenParts;
}): WorkClientCache {
  const { store, logger, told } = o;
  return new WorkClientCache(
    o.workUrls,
    { maxResponseBytes: o.config.workMaxResponseBytes, log: logger, timeCall: o.metrics?.timeCall },
    (client, teamId) =>
      indexWorkClient(
        client,
        teamId,
        store.taskIndex,
        (m) => logger.warn(m),
        // A read showed a known task changed: told once, as if made from Slack.
        (team, change) => seenChange(told, team, describeSeen(change)),
        (team, commentId) => store.seenEvents.markSeen(commentMark(team, commentId)),
        (team, taskId, comments) => {
          tellSeenComments({ ...told, store }, team, taskId, comments).catch((e: unknown) =>
            logger.warn(`Comments of task ${taskId}: ${errMessage(e)}`),
          );
        },
      ),
    (teamId, apiKey) => o.links.rememberKey(teamId, apiKey),
  );
}
