/** installations: its rows as both engines store them, and how they read as the contract's types. */
import type { Installation } from '@slack/bolt';

export type AnyInstallation = Installation<'v1' | 'v2', boolean>;

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
