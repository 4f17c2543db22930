/** connections on SQLite: the table store over better-sqlite3 (what it holds: contract.ts). */
import type Database from 'better-sqlite3';
import type { SecretBox } from '../../crypto.js';
import type { Sync } from '../../sqlite/async-over-sync.js';
import type { ConnectionsStore } from './contract.js';
import { aad, type Row, toInfo } from './rows.js';

export function connectionsStore(db: Database.Database, box: SecretBox): Sync<ConnectionsStore> {
  const select = db.prepare<[string], Row>('SELECT * FROM connections WHERE team_id = ?');
  const upsert = db.prepare(
    `INSERT INTO connections (team_id, enterprise_id, workspace_id, workspace_name, api_key_enc,
       key_owner_id, connected_by, connected_at)
     VALUES (@team_id, @enterprise_id, @workspace_id, @workspace_name, @api_key_enc,
       @key_owner_id, @connected_by, @connected_at)
     ON CONFLICT (team_id) DO UPDATE SET enterprise_id = excluded.enterprise_id,
       workspace_id = excluded.workspace_id, workspace_name = excluded.workspace_name,
       api_key_enc = excluded.api_key_enc, key_owner_id = excluded.key_owner_id,
       connected_by = excluded.connected_by,
       connected_at = excluded.connected_at`,
  );
  const remove = db.prepare('DELETE FROM connections WHERE team_id = ?');
  const all = db.prepare<[], Row>('SELECT * FROM connections ORDER BY team_id');

  return {
    get(teamId) {
      const row = select.get(teamId);
      if (!row) return undefined;
      return { ...toInfo(row), apiKey: box.open(row.api_key_enc, aad(teamId)) };
    },
    info(teamId) {
      const row = select.get(teamId);
      return row ? toInfo(row) : undefined;
    },
    save(c) {
      upsert.run({
        team_id: c.teamId,
        enterprise_id: c.enterpriseId ?? null,
        workspace_id: c.workspaceId,
        workspace_name: c.workspaceName,
        api_key_enc: box.seal(c.apiKey, aad(c.teamId)),
        key_owner_id: c.keyOwnerId ?? null,
        connected_by: c.connectedBy,
        connected_at: c.connectedAt,
      });
    },
    delete(teamId) {
      return remove.run(teamId).changes > 0;
    },
    list() {
      return all.all().map(toInfo);
    },
  };
}
