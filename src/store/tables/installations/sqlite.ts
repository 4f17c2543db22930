/** installations on SQLite: the table store over better-sqlite3 (what it holds: contract.ts). */
import type { InstallationQuery } from '@slack/bolt';
import type Database from 'better-sqlite3';
import type { SecretBox } from '../../crypto.js';
import type { Sync } from '../../sqlite/async-over-sync.js';
import type { AnyInstallation, InstallationsStore } from './contract.js';
import { keyOf, openInstallation, orgKey, type Row, teamKey } from './rows.js';

export function installationsStore(
  db: Database.Database,
  box: SecretBox,
): Sync<InstallationsStore> {
  const upsert = db.prepare(
    `INSERT INTO installations (install_key, enterprise_id, team_id, is_enterprise_install,
       installer_user_id, data_enc, installed_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (install_key) DO UPDATE SET enterprise_id = excluded.enterprise_id,
       team_id = excluded.team_id, is_enterprise_install = excluded.is_enterprise_install,
       installer_user_id = excluded.installer_user_id, data_enc = excluded.data_enc,
       installed_at = excluded.installed_at`,
  );
  const select = db.prepare<[string], Row>('SELECT * FROM installations WHERE install_key = ?');
  const remove = db.prepare('DELETE FROM installations WHERE install_key = ?');
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM installations');
  const all = db.prepare<[], Row>('SELECT * FROM installations');

  const read = (key: string): AnyInstallation | undefined => {
    const row = select.get(key);
    if (!row) return undefined;
    return openInstallation(box, row);
  };
  const findRow = (teamId: string | undefined, enterpriseId?: string): Row | undefined =>
    (teamId ? select.get(teamKey(teamId)) : undefined) ??
    (enterpriseId ? select.get(orgKey(enterpriseId)) : undefined);

  return {
    storeInstallation(installation) {
      const key = keyOf({
        isEnterpriseInstall: installation.isEnterpriseInstall,
        enterpriseId: installation.enterprise?.id,
        teamId: installation.team?.id,
      });
      upsert.run(
        key,
        installation.enterprise?.id ?? null,
        installation.team?.id ?? null,
        installation.isEnterpriseInstall ? 1 : 0,
        installation.user?.id ?? null,
        box.seal(JSON.stringify(installation), `installation:${key}`),
        new Date().toISOString(),
      );
    },
    fetchInstallation(query: InstallationQuery<boolean>) {
      const found = read(keyOf(query));
      if (!found) {
        throw new Error(
          `No installation for ${query.isEnterpriseInstall ? 'enterprise' : 'team'} ${query.isEnterpriseInstall ? query.enterpriseId : query.teamId}.`,
        );
      }
      return found;
    },
    deleteInstallation(query: InstallationQuery<boolean>) {
      remove.run(keyOf(query));
    },
    find(teamId, enterpriseId) {
      const row = findRow(teamId, enterpriseId);
      return row ? read(row.install_key) : undefined;
    },
    installerUserId(teamId, enterpriseId) {
      return findRow(teamId, enterpriseId)?.installer_user_id ?? undefined;
    },
    deleteFor(teamId, enterpriseId) {
      let n = 0;
      if (teamId) n += remove.run(teamKey(teamId)).changes;
      if (enterpriseId) n += remove.run(orgKey(enterpriseId)).changes;
      return n;
    },
    count: () => count.get()!.n,
    unreadableCount() {
      let n = 0;
      for (const row of all.iterate()) {
        try {
          box.open(row.data_enc, `installation:${row.install_key}`);
        } catch {
          n++;
        }
      }
      return n;
    },
  };
}
