/**
 * installations: Bolt's OAuth installation store (multi-workspace mode), in SQLite.
 * The whole Installation object — bot token, refresh token, installer — is sealed; only the
 * lookup keys and the installing user's id (for the connect/disconnect permission) are plain.
 * Org-wide (enterprise) installs are keyed by enterprise id, others by team id.
 */
import type { Installation, InstallationStore } from '@slack/bolt';

export type AnyInstallation = Installation<'v1' | 'v2', boolean>;

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
