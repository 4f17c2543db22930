/**
 * Ports, not parts: the small interfaces handlers use to reach the app's long-lived parts.
 * `WorklinkDeps` (deps.ts) holds these, never the parts themselves; the parts (channel feeds,
 * live messages, the index refresh, the watcher, notifications, the digest…) are built and
 * started in src/slack/start and live on the running app's handle. Types here import nothing
 * from the features, so nothing imports its way round in a circle.
 */
import type { WebClient } from '@slack/web-api';
import type { WatchStatus } from '../../sync/watcher.js';
import type { WorkClient } from '../../workapi/client.js';

/** What a task card shows: gathered by tasks/card/load.ts, drawn by tasks/card/task-card.ts. */
export interface TaskCardData {
  taskId: string;
  name: string;
  /** TaskNumber, when known (update task answers it; get task does not). */
  number?: number;
  projectName?: string;
  groupName?: string;
  status: { name: string; done: boolean };
  assignees: { name: string; slackUserId?: string }[];
  /** As the service sent it; shown as its UTC calendar date. */
  dueDate?: string;
  priorityName?: string;
  estimate?: number;
  milestone?: number;
  /** "Open in …": the task's address in the service, when one is known (links/addresses.ts). */
  open?: { label: string; url: string };
}

/**
 * Where a channel feed put a new task: its card posted ('card'), a line in the burst's
 * summary ('summary'), already there ('taken'), or not posted ('failed').
 */
export type FeedPlace = 'card' | 'summary' | 'taken' | 'failed';

/** The request a new task is placed for: who made it, where, with the team's bot client. */
export interface PlaceRequest {
  teamId: string;
  userId: string;
  channelId?: string;
  slack: WebClient;
}

/** The channel feeds, as `/work add` sees them (src/slack/feeds/feeds-part.ts). */
export interface FeedPlacement {
  /**
   * `/work add` in a channel whose feed takes the new task (its project): the feed places it
   * — its card is the confirmation, or past the burst rule a line in the summary. Undefined
   * when the channel has no feed for it (the command posts its own card).
   */
  placeHere(
    request: PlaceRequest,
    data: TaskCardData,
    projectId: string,
  ): Promise<FeedPlace | undefined>;
}

/** The task index's reads, as `/work` commands ask for them (src/sync/task-index-refresh.ts). */
export interface IndexReads {
  /**
   * Reads the project's open and whole lists into the index now, unless read in the last
   * minute. True when it read.
   */
  listProject(teamId: string, projectId: string, work: WorkClient): Promise<boolean>;
}

/** Whether and how Worklink looks for tasks made outside Slack (src/sync/watcher.ts). */
export interface Watching {
  readonly enabled: boolean;
  /** What it watches for the team and when it last looked (`/work status`). */
  status(teamId: string): Promise<WatchStatus>;
}

/** Quiet hours' release (src/slack/notify/dm-gate.ts QuietRelease), as `/work notify` asks. */
export interface QuietHoursRelease {
  /** Releases every held DM whose hold has ended (or was lifted) now. */
  runOnce(): Promise<unknown>;
}
