/** team_settings on PostgreSQL: each team's admin policies (contract.ts). */

import { named, type Sql } from '../../pg/db.js';
import type { TeamSettingsStore } from './contract.js';
import { fromRow, type Row, UPSERT_COLUMNS } from './rows.js';

export function pgTeamSettingsStore(sql: Sql): TeamSettingsStore {
  return {
    get: async (teamId) =>
      fromRow(
        await sql.row<Row>(
          named('team-settings.get', 'SELECT * FROM team_settings WHERE team_id = $1'),
          [teamId],
        ),
      ),
    set: (teamId, change, by, now = Date.now()) =>
      sql.tx(async (tx) => {
        // The row is locked until written: two admins changing different policies keep both.
        const before = await tx.row<Row>(
          named('team-settings.set', 'SELECT * FROM team_settings WHERE team_id = $1 FOR UPDATE'),
          [teamId],
        );
        const next = { ...fromRow(before), ...change, updatedBy: by, updatedAt: now };
        await tx.run(
          `INSERT INTO team_settings ${UPSERT_COLUMNS} VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (team_id) DO UPDATE SET members_policy = excluded.members_policy,
             links_policy = excluded.links_policy, updated_by = excluded.updated_by,
             updated_at = excluded.updated_at`,
          [teamId, next.members, next.links, by, now],
        );
        return next;
      }),
    deleteTeam: (teamId) =>
      sql.run(named('team-settings.deleteTeam', 'DELETE FROM team_settings WHERE team_id = $1'), [
        teamId,
      ]),
  };
}
