/**
 * known_projects: the projects this Slack team has linked, created or looked up. The service
 * has no "list projects" operation, so this is how pickers (the create-task modal's project
 * menu) offer projects. Each sighting refreshes the name and `last_seen_at`.
 */
import type Database from 'better-sqlite3';
import type { Sync } from './sqlite/async-over-sync.js';

export interface KnownProject {
  teamId: string;
  projectId: string;
  projectName: string;
  lastSeenAt: string;
}

export interface KnownProjectsStore {
  /** Records a sighting (insert or refresh name + time). */
  remember(teamId: string, projectId: string, projectName: string): Promise<void>;
  /** Most recently seen first. */
  list(teamId: string, limit?: number): Promise<KnownProject[]>;
  get(teamId: string, projectId: string): Promise<KnownProject | undefined>;
  /** A project that turned out not to exist any more. */
  forget(teamId: string, projectId: string): Promise<boolean>;
  deleteTeam(teamId: string): Promise<number>;
}

/** A row as stored (both engines read it the same way). */
export interface Row {
  team_id: string;
  project_id: string;
  project_name: string;
  last_seen_at: string;
}

export const fromRow = (r: Row): KnownProject => ({
  teamId: r.team_id,
  projectId: r.project_id,
  projectName: r.project_name,
  lastSeenAt: r.last_seen_at,
});

export function knownProjectsStore(db: Database.Database): Sync<KnownProjectsStore> {
  const upsert = db.prepare(
    `INSERT INTO known_projects (team_id, project_id, project_name, last_seen_at)
     VALUES (?, ?, ?, ?)
     ON CONFLICT (team_id, project_id) DO UPDATE SET project_name = excluded.project_name,
       last_seen_at = excluded.last_seen_at`,
  );
  const list = db.prepare<[string, number], Row>(
    `SELECT * FROM known_projects WHERE team_id = ?
     ORDER BY last_seen_at DESC, project_name LIMIT ?`,
  );
  const select = db.prepare<[string, string], Row>(
    'SELECT * FROM known_projects WHERE team_id = ? AND project_id = ?',
  );
  const remove = db.prepare('DELETE FROM known_projects WHERE team_id = ? AND project_id = ?');
  const removeTeam = db.prepare('DELETE FROM known_projects WHERE team_id = ?');

  return {
    remember(teamId, projectId, projectName) {
      upsert.run(teamId, projectId, projectName || projectId, new Date().toISOString());
    },
    // Slack static selects hold at most 100 options; that is the default page.
    list: (teamId, limit = 100) => list.all(teamId, limit).map(fromRow),
    get: (teamId, projectId) => {
      const row = select.get(teamId, projectId);
      return row ? fromRow(row) : undefined;
    },
    forget: (teamId, projectId) => remove.run(teamId, projectId).changes > 0,
    deleteTeam: (teamId) => removeTeam.run(teamId).changes,
  };
}
