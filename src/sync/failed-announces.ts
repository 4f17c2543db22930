/**
 * New tasks the watcher could not announce, each recorded against its task: tried again at a
 * later look after a pause that doubles with each failure (one interval, two, four, … at most
 * an hour), and listed for admins in `/work status`. Kept in memory: a task that was never
 * announced is never marked seen, so after a restart the first look tries it again anyway.
 */

export interface FailedAnnounce {
  projectId: string;
  taskId: string;
  attempts: number;
  /** Why the last try failed. */
  error: string;
  /** Epoch ms of the next try. */
  nextAt: number;
}

const MAX_PAUSE_MS = 60 * 60_000;

export class FailedAnnounces {
  /** team → task id → its record. */
  private readonly byTeam = new Map<string, Map<string, FailedAnnounce>>();

  constructor(private readonly intervalMs: number) {}

  /** Whether the task may be tried now (never failed, or its pause is over). */
  due(teamId: string, taskId: string, now: number): boolean {
    const f = this.byTeam.get(teamId)?.get(taskId);
    return !f || f.nextAt <= now;
  }

  /** Records a failed try; true for the task's first failure (the one worth a log line). */
  record(teamId: string, projectId: string, taskId: string, error: string, now: number): boolean {
    const team = this.byTeam.get(teamId) ?? new Map<string, FailedAnnounce>();
    this.byTeam.set(teamId, team);
    const before = team.get(taskId);
    const attempts = (before?.attempts ?? 0) + 1;
    const pause = Math.min(MAX_PAUSE_MS, Math.max(1_000, this.intervalMs) * 2 ** (attempts - 1));
    team.set(taskId, { projectId, taskId, attempts, error, nextAt: now + pause });
    return !before;
  }

  succeeded(teamId: string, taskId: string): void {
    this.byTeam.get(teamId)?.delete(taskId);
  }

  /** Forgets the project's failed tasks that its open list no longer has (done, or gone). */
  keepListed(teamId: string, projectId: string, listed: ReadonlySet<string>): void {
    const team = this.byTeam.get(teamId);
    if (!team) return;
    for (const [taskId, f] of team) {
      if (f.projectId === projectId && !listed.has(taskId)) team.delete(taskId);
    }
  }

  list(teamId: string): FailedAnnounce[] {
    return [...(this.byTeam.get(teamId)?.values() ?? [])];
  }
}
