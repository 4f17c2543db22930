/**
 * installations: Bolt's OAuth installation store (multi-workspace mode), in SQLite.
 * The whole Installation object — bot token, refresh token, installer — is sealed; only the
 * lookup keys and the installing user's id (for the connect/disconnect permission) are plain.
 * Org-wide (enterprise) installs are keyed by enterprise id, others by team id.
 */
import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import type Database from 'better-sqlite3';
import type { SecretBox } from './crypto.js';
import type { Sync } from './sqlite/async-over-sync.js';

type AnyInstallation = Installation<'v1' | 'v2', boolean>;

export interface InstallationsStore extends InstallationStore {
  /** The installation that serves a team: its own, else its enterprise's org-wide install. */
  find(teamId: string | undefined, enterpriseId?: string): Promise<AnyInstallation | undefined>;
  /** Slack user id of who installed the app for this team (OAuth mode), if known. */
  installerUserId(teamId: string | undefined, enterpriseId?: string): Promise<string | undefined>;
  /** Deletes the team's own install and/or the enterprise's org-wide one; returns how many rows. */
  deleteFor(teamId: string | undefined, enterpriseId?: string): Promise<number>;
  count(): Promise<number>;
  /** How many stored installations the current secrets key cannot open. */
  unreadableCount(): Promise<number>;
}

export interface Row {
  install_key: string;
  installer_user_id: string | null;
  data_enc: Buffer;
}

export const teamKey = (teamId: string) => `T:${teamId}`;
export const orgKey = (enterpriseId: string) => `E:${enterpriseId}`;

/** The row's key for an installation or a query: the org's for org-wide installs. */
export function keyOf(query: {
  isEnterpriseInstall?: boolean;
  enterpriseId?: string;
  teamId?: string;
}) {
  if (query.isEnterpriseInstall && query.enterpriseId) return orgKey(query.enterpriseId);
  if (query.teamId) return teamKey(query.teamId);
  throw new Error('An installation query needs a team id or an enterprise id.');
}

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
    return JSON.parse(box.open(row.data_enc, `installation:${key}`)) as AnyInstallation;
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
