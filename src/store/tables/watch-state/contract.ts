/**
 * What the watcher (src/sync/watcher.ts) has seen, durably: per (team, project) when it first
 * and last looked, and the ids of the tasks it has seen there. A task id not in the set is
 * new; the first look at a project only records the set (the baseline). Ids are added only
 * after the new task was queued in the outbox, so a crash in between repeats the queueing
 * (which the outbox's unique key makes harmless), never loses it.
 */

export interface WatchLook {
  teamId: string;
  projectId: string;
  /** Epoch ms of the first look (the baseline). */
  baselineAt: number;
  /** Epoch ms of the last successful look. */
  lookedAt: number;
  /** Task ids seen so far. */
  seen: number;
}

export interface WatchStateStore {
  /** The ids seen in this project, or undefined before its first look. */
  seenIds(teamId: string, projectId: string): Promise<Set<string> | undefined>;
  /** First look: every id is the baseline; none of them is new. */
  recordBaseline(
    teamId: string,
    projectId: string,
    taskIds: readonly string[],
    now: number,
  ): Promise<void>;
  /** A later look: when it was, and the ids announced since (now seen). */
  recordLook(
    teamId: string,
    projectId: string,
    now: number,
    newIds?: readonly string[],
  ): Promise<void>;
  /** Every watched project of a team, most recently looked at first. */
  looks(teamId: string): Promise<WatchLook[]>;
  forgetTeam(teamId: string): Promise<void>;
}
