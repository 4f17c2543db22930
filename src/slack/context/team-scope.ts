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
