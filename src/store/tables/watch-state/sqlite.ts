/** watch-state on SQLite: the table store over better-sqlite3 (what it holds: contract.ts). */
import type Database from 'better-sqlite3';
import type { Sync } from '../../sqlite/async-over-sync.js';
import type { WatchStateStore } from './contract.js';

export function watchStateStore(db: Database.Database): Sync<WatchStateStore> {
  const look = db.prepare(
    'SELECT baseline_at FROM watched_projects WHERE team_id = ? AND project_id = ?',
  );
  const ids = db.prepare<[string, string], { task_id: string }>(
    'SELECT task_id FROM watch_seen WHERE team_id = ? AND project_id = ?',
  );
  const upsertLook = db.prepare(
    `INSERT INTO watched_projects (team_id, project_id, baseline_at, looked_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (team_id, project_id) DO UPDATE SET looked_at = excluded.looked_at`,
  );
  const addSeen = db.prepare(
    'INSERT OR IGNORE INTO watch_seen (team_id, project_id, task_id) VALUES (?, ?, ?)',
  );
  const listLooks = db.prepare<
    [string],
    { project_id: string; baseline_at: number; looked_at: number; seen: number }
  >(
    `SELECT w.project_id, w.baseline_at, w.looked_at,
            (SELECT COUNT(*) FROM watch_seen s
              WHERE s.team_id = w.team_id AND s.project_id = w.project_id) AS seen
       FROM watched_projects w WHERE w.team_id = ? ORDER BY w.looked_at DESC, w.project_id`,
  );
  const record = db.transaction(
    (teamId: string, projectId: string, now: number, taskIds: readonly string[]) => {
      upsertLook.run(teamId, projectId, now, now);
      for (const id of taskIds) addSeen.run(teamId, projectId, id);
    },
  );
  const forget = db.transaction((teamId: string) => {
    db.prepare('DELETE FROM watch_seen WHERE team_id = ?').run(teamId);
    db.prepare('DELETE FROM watched_projects WHERE team_id = ?').run(teamId);
  });

  return {
    seenIds(teamId, projectId) {
      if (!look.get(teamId, projectId)) return undefined;
      return new Set(ids.all(teamId, projectId).map((r) => r.task_id));
    },
    recordBaseline: (teamId, projectId, taskIds, now) => record(teamId, projectId, now, taskIds),
    recordLook: (teamId, projectId, now, newIds = []) => record(teamId, projectId, now, newIds),
    looks: (teamId) =>
      listLooks.all(teamId).map((r) => ({
        teamId,
        projectId: r.project_id,
        baselineAt: r.baseline_at,
        lookedAt: r.looked_at,
        seen: r.seen,
      })),
    forgetTeam: (teamId) => forget(teamId),
  };
}
