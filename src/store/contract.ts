/**
 * The app's own store, engine-neutral and asynchronous: every table store method returns a
 * Promise, and a unit of work over several tables is one named method here (one transaction
 * inside the store, written once in units/), never a transaction opened by a caller.
 * Engines: SQLite (sqlite/open.ts) and PostgreSQL (pg/index.ts); open.ts picks one.
 */

import type { SecretBox } from './crypto.js';
import type { ChannelProject } from './tables/channel-projects/contract.js';
import type { Connection, ConnectionInfo } from './tables/connections/contract.js';
import { type ChannelLinkInput, connect, linkChannel } from './units/connect.js';
import {
  type ForgottenTeam,
  type ForgottenUninstalledTeam,
  forgetTeam,
  forgetUninstalledTeam,
} from './units/forget-team.js';
import type { Tables } from './units/tables.js';
import { type IncomingEvent, type RowsFor, takeInEvent } from './units/take-in-event.js';
import type { RunInTx } from './units/tx.js';

/** The units of work: each runs in one transaction. */
export interface StoreUnits {
  /**
   * Forgets what Worklink keeps about a team's service workspace: the connection (API key),
   * people's own keys, channel links and feeds, known projects, the task index and the
   * watcher's state. Returns what was removed.
   */
  forgetTeam(teamId: string): Promise<ForgottenTeam>;
  /**
   * Forgets a team that removed Worklink (app uninstalled, bot token revoked): what forgetTeam
   * forgets, and its user links, e-mail lookups, settings and task messages too. Its pending
   * DMs can no longer be sent (no token) and fail with `reason`; the rows stay, so one DM per
   * assignee still holds should the team install Worklink again.
   */
  forgetUninstalledTeam(
    teamId: string,
    reason: string,
    now?: number,
  ): Promise<ForgottenUninstalledTeam>;
  /**
   * Saves a team's connection with what goes with it: when the team was connected to another
   * service workspace, what forgetTeam forgets goes first (its links and projects point at ids
   * the new one does not have); `links` are then set as channels' default projects (and their
   * projects remembered). Returns the connection it replaced.
   */
  connect(
    connection: Connection,
    links?: readonly ChannelLinkInput[],
  ): Promise<{ previous?: ConnectionInfo; switched: boolean }>;
  /**
   * Makes `projectId` a channel's default project and remembers the project's name. Returns
   * the channel's link before, if it had one.
   */
  linkChannel(
    teamId: string,
    channelId: string,
    project: { projectId: string; projectName: string },
    linkedBy: string,
  ): Promise<{ before?: ChannelProject }>;
  /**
   * Takes in a service event once: marks its id seen and queues (mode 'ignore') the rows
   * `rowsFor` builds for each Slack team connected to its workspace. `rowsFor` is plain
   * computation (no I/O): it is given the team and the event's project name as remembered.
   * A replay changes nothing (`duplicate`).
   */
  takeInEvent(
    event: IncomingEvent,
    rowsFor: RowsFor,
    now?: number,
  ): Promise<{ duplicate: boolean; teams: number; queued: number }>;
}

export interface Store extends Tables, StoreUnits {
  readonly dataDir: string;
  /** Seals other secrets the same way (bound to a label); never log what it opens. */
  readonly secrets: SecretBox;
  close(): Promise<void>;
}

/** The Store's units of work over an engine's way of running a transaction. */
export function storeUnits(run: RunInTx): StoreUnits {
  return {
    forgetTeam: (teamId) => run((tx) => forgetTeam(tx, teamId)),
    forgetUninstalledTeam: (teamId, reason, now = Date.now()) =>
      run((tx) => forgetUninstalledTeam(tx, teamId, reason, now)),
    connect: (connection, links = []) => run((tx) => connect(tx, connection, links)),
    linkChannel: (teamId, channelId, project, linkedBy) =>
      run((tx) => linkChannel(tx, teamId, channelId, project, linkedBy)),
    takeInEvent: (event, rowsFor, now = Date.now()) =>
      run((tx) => takeInEvent(tx, event, rowsFor, now)),
  };
}
