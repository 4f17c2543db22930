/** channel_projects: a Slack channel's default project (`/work project link`). */
import type Database from 'better-sqlite3';
import type { Sync } from './sqlite/async-over-sync.js';

export interface ChannelProject {
  teamId: string;
  channelId: string;
  projectId: string;
  linkedBy: string;
  linkedAt: string;
}

export interface ChannelProjectsStore {
  get(teamId: string, channelId: string): Promise<ChannelProject | undefined>;
  /** Links (or re-links) the channel; returns the link. */
  link(
    teamId: string,
    channelId: string,
    projectId: string,
    linkedBy: string,
  ): Promise<ChannelProject>;
  /** True when the channel had a link. */
  unlink(teamId: string, channelId: string): Promise<boolean>;
  listForTeam(teamId: string): Promise<ChannelProject[]>;
  /** Removes every link of the team; returns how many. */
  deleteTeam(teamId: string): Promise<number>;
}

/** A row as stored (both engines read it the same way). */
export interface Row {
  team_id: string;
  channel_id: string;
  project_id: string;
  linked_by: string;
  linked_at: string;
}

export const fromRow = (r: Row): ChannelProject => ({
  teamId: r.team_id,
  channelId: r.channel_id,
  projectId: r.project_id,
  linkedBy: r.linked_by,
  linkedAt: r.linked_at,
});

export function channelProjectsStore(db: Database.Database): Sync<ChannelProjectsStore> {
  const select = db.prepare<[string, string], Row>(
    'SELECT * FROM channel_projects WHERE team_id = ? AND channel_id = ?',
  );
  const upsert = db.prepare(
    `INSERT INTO channel_projects (team_id, channel_id, project_id, linked_by, linked_at)
     VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (team_id, channel_id) DO UPDATE SET project_id = excluded.project_id,
       linked_by = excluded.linked_by, linked_at = excluded.linked_at`,
  );
  const remove = db.prepare('DELETE FROM channel_projects WHERE team_id = ? AND channel_id = ?');
  const forTeam = db.prepare<[string], Row>(
    'SELECT * FROM channel_projects WHERE team_id = ? ORDER BY linked_at, channel_id',
  );
  const removeTeam = db.prepare('DELETE FROM channel_projects WHERE team_id = ?');

  return {
    get: (teamId, channelId) => {
      const row = select.get(teamId, channelId);
      return row ? fromRow(row) : undefined;
    },
    link(teamId, channelId, projectId, linkedBy) {
      const linkedAt = new Date().toISOString();
      upsert.run(teamId, channelId, projectId, linkedBy, linkedAt);
      return { teamId, channelId, projectId, linkedBy, linkedAt };
    },
    unlink: (teamId, channelId) => remove.run(teamId, channelId).changes > 0,
    listForTeam: (teamId) => forTeam.all(teamId).map(fromRow),
    deleteTeam: (teamId) => removeTeam.run(teamId).changes,
  };
}
