/**
 * What code that reads for a team — not answering a person — needs: the team, a client of
 * its connection, the store and a logger. Card, project and people readers take this, so
 * background work (live messages, feeds, the task-change owner writing as someone) passes
 * exactly that instead of a whole per-request WorkContext; a WorkContext is one too.
 */
import type { Logger } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { Store } from '../../store/index.js';
import type { WorkClient } from '../../workapi/client.js';
import type { WorklinkDeps } from './deps.js';

export interface TeamScope {
  teamId: string;
  readonly work: WorkClient;
  store: Store;
  logger: Logger;
}

/**
 * A team scope that can also say who is who (cards, feeds, people labels): the team's bot
 * client, the app's caches of service users and Slack matches, and the tasks' addresses.
 */
export interface TeamReader extends TeamScope {
  slack: WebClient;
  deps: Pick<WorklinkDeps, 'directory' | 'matcher' | 'links'>;
}

/**
 * What background parts read teams with (live messages, feeds, activity DMs): the app's bot
 * and work clients per team and its caches — built once in start/parts.ts.
 */
export interface TeamReaders {
  store: Store;
  logger: Logger;
  /** The team's bot client for background calls (Notifications.slackFor). */
  slackFor(teamId: string): Promise<WebClient | undefined>;
  /** The team's WorkClient, or undefined when it has no usable connection. */
  workFor(teamId: string): Promise<WorkClient | undefined>;
  /** Who is who (the cards' assignees) and where tasks live. */
  directory: WorklinkDeps['directory'];
  matcher: WorklinkDeps['matcher'];
  links: WorklinkDeps['links'];
}

/** The team as background work reads it (`slack`: a client already at hand); undefined
 *  when the team has no bot client or no usable connection. */
export async function teamReader(
  readers: TeamReaders,
  teamId: string,
  slack?: WebClient,
): Promise<TeamReader | undefined> {
  const [bot, work] = await Promise.all([
    slack ?? readers.slackFor(teamId),
    readers.workFor(teamId),
  ]);
  if (!bot || !work) return undefined;
  const { store, logger, directory, matcher, links } = readers;
  return { teamId, work, store, logger, slack: bot, deps: { directory, matcher, links } };
}
