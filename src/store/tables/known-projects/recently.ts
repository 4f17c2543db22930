/**
 * known_projects sightings this instance wrote a moment ago (PostgreSQL): the same project
 * under the same name within RECENT_MS is not written again. Every `/work list` remembers its
 * project, and the write only moved `last_seen_at` by moments (the pickers' order, most
 * recent first, is kept to within a minute) — a round trip per command for nothing. (SQLite's
 * write is in-process and may be part of a unit of work: it writes every time.) A renamed
 * project is written at once; forgetting drops the memory.
 */

/** How long a written sighting stands for the same ones after it. */
export const RECENT_MS = 60_000;
/** Sightings remembered (bounded: forgetting them only costs a write). */
const MAX = 10_000;

export class RecentlyRemembered {
  private readonly written = new Map<string, { name: string; at: number }>();

  /** Whether this sighting was written within RECENT_MS (then it need not be again). */
  fresh(teamId: string, projectId: string, name: string, now = Date.now()): boolean {
    const last = this.written.get(key(teamId, projectId));
    return last !== undefined && last.name === name && now - last.at < RECENT_MS && now >= last.at;
  }

  wrote(teamId: string, projectId: string, name: string, now = Date.now()): void {
    if (this.written.size >= MAX) this.written.clear();
    this.written.set(key(teamId, projectId), { name, at: now });
  }

  forget(teamId: string, projectId?: string): void {
    if (projectId !== undefined) {
      this.written.delete(key(teamId, projectId));
      return;
    }
    for (const k of this.written.keys()) if (k.startsWith(key(teamId, ''))) this.written.delete(k);
  }
}

const key = (teamId: string, projectId: string) => `${teamId}\u0000${projectId}`;
