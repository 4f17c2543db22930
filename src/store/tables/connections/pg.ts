/** connections on PostgreSQL: see contract.ts for what the table holds. */

import type { SecretBox } from '../../crypto.js';
import { named, type Sql } from '../../pg/db.js';
import type { Connection, ConnectionsStore } from './contract.js';
import { aad, type Row, toInfo } from './rows.js';

export function pgConnectionsStore(sql: Sql, box: SecretBox): ConnectionsStore {
  const select = (teamId: string) =>
    sql.row<Row>(named('connections.byTeam', 'SELECT * FROM connections WHERE team_id = $1'), [
      teamId,
    ]);
  return {
    async get(teamId) {
      const row = await select(teamId);
      if (!row) return undefined;
      return { ...toInfo(row), apiKey: box.open(row.api_key_enc, aad(teamId)) };
    },
    async info(teamId) {
      const row = await select(teamId);
      return row ? toInfo(row) : undefined;
    },
    async save(c: Connection) {
      await sql.run(
        named(
          'connections.save',
          `INSERT INTO connections (team_id, enterprise_id, workspace_id, workspace_name,
           api_key_enc, key_owner_id, connected_by, connected_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (team_id) DO UPDATE SET enterprise_id = excluded.enterprise_id,
           workspace_id = excluded.workspace_id, workspace_name = excluded.workspace_name,
           api_key_enc = excluded.api_key_enc, key_owner_id = excluded.key_owner_id,
           connected_by = excluded.connected_by, connected_at = excluded.connected_at`,
        ),
        [
          c.teamId,
          c.enterpriseId ?? null,
          c.workspaceId,
          c.workspaceName,
          box.seal(c.apiKey, aad(c.teamId)),
          c.keyOwnerId ?? null,
          c.connectedBy,
          c.connectedAt,
        ],
      );
    },
    delete: async (teamId) =>
      (await sql.run(named('connections.delete', 'DELETE FROM connections WHERE team_id = $1'), [
        teamId,
      ])) > 0,
    list: async () =>
      (
        await sql.rows<Row>(
          named('connections.list', 'SELECT * FROM connections ORDER BY team_id COLLATE "C"'),
        )
      ).map(toInfo),
  };
}
