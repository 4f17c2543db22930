/** installations on PostgreSQL (Bolt's OAuth installation store): see contract.ts. */
import type { Installation, InstallationQuery } from '@slack/bolt';
import type { SecretBox } from '../../crypto.js';
import { named, type Sql } from '../../pg/db.js';
import type { InstallationsStore } from './contract.js';
import { keyOf, orgKey, type Row, teamKey } from './rows.js';

type AnyInstallation = Installation<'v1' | 'v2', boolean>;

export function pgInstallationsStore(sql: Sql, box: SecretBox): InstallationsStore {
  const select = (key: string) =>
    sql.row<Row>(
      named('installations.byKey', 'SELECT * FROM installations WHERE install_key = $1'),
      [key],
    );
  const remove = (key: string) =>
    sql.run(named('installations.delete', 'DELETE FROM installations WHERE install_key = $1'), [
      key,
    ]);
  const open = (row: Row) =>
    JSON.parse(box.open(row.data_enc, `installation:${row.install_key}`)) as AnyInstallation;
  const findRow = async (teamId: string | undefined, enterpriseId?: string) =>
    (teamId ? await select(teamKey(teamId)) : undefined) ??
    (enterpriseId ? await select(orgKey(enterpriseId)) : undefined);

  return {
    async storeInstallation(installation) {
      const key = keyOf({
        isEnterpriseInstall: installation.isEnterpriseInstall,
        enterpriseId: installation.enterprise?.id,
        teamId: installation.team?.id,
      });
      await sql.run(
        named(
          'installations.storeInstallation',
          `INSERT INTO installations (install_key, enterprise_id, team_id, is_enterprise_install,
           installer_user_id, data_enc, installed_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (install_key) DO UPDATE SET enterprise_id = excluded.enterprise_id,
           team_id = excluded.team_id, is_enterprise_install = excluded.is_enterprise_install,
           installer_user_id = excluded.installer_user_id, data_enc = excluded.data_enc,
           installed_at = excluded.installed_at`,
        ),
        [
          key,
          installation.enterprise?.id ?? null,
          installation.team?.id ?? null,
          installation.isEnterpriseInstall === true,
          installation.user?.id ?? null,
          box.seal(JSON.stringify(installation), `installation:${key}`),
          new Date().toISOString(),
        ],
      );
    },
    async fetchInstallation(query: InstallationQuery<boolean>) {
      const row = await select(keyOf(query));
      if (!row) {
        throw new Error(
          `No installation for ${query.isEnterpriseInstall ? 'enterprise' : 'team'} ${query.isEnterpriseInstall ? query.enterpriseId : query.teamId}.`,
        );
      }
      return open(row);
    },
    async deleteInstallation(query: InstallationQuery<boolean>) {
      await remove(keyOf(query));
    },
    async find(teamId, enterpriseId) {
      const row = await findRow(teamId, enterpriseId);
      return row ? open(row) : undefined;
    },
    async installerUserId(teamId, enterpriseId) {
      return (await findRow(teamId, enterpriseId))?.installer_user_id ?? undefined;
    },
    async deleteFor(teamId, enterpriseId) {
      let n = 0;
      if (teamId) n += await remove(teamKey(teamId));
      if (enterpriseId) n += await remove(orgKey(enterpriseId));
      return n;
    },
    count: async () =>
      (await sql.row<{ n: number }>(
        named('installations.count', 'SELECT count(*) AS n FROM installations'),
      ))!.n,
    async unreadableCount() {
      let n = 0;
      for (const row of await sql.rows<Row>(
        named('installations.unreadableCount', 'SELECT * FROM installations'),
      )) {
        try {
          open(row);
        } catch {
          n++;
        }
      }
      return n;
    },
  };
}
