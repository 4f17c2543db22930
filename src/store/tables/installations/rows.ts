/** installations: its rows as both engines store them, and how they read as the contract's types. */
import type { SecretBox } from '../../crypto.js';
import type { AnyInstallation } from './contract.js';

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

/**
 * The sealed Installation of a row, bound to its key (copied onto another row it does not
 * open). Only Worklink writes it, from what Bolt handed over, so it is read back as that.
 */
export function openInstallation(box: SecretBox, row: Row): AnyInstallation {
  const parsed: AnyInstallation = JSON.parse(
    box.open(row.data_enc, `installation:${row.install_key}`),
  );
  return parsed;
}
