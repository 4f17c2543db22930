/**
 * What code that reads for a team — not answering a person — needs: the team, a client of
 * its connection, the store and a logger. Card, project and people readers take this, so
 * background work (live messages, feeds, the task-change owner writing as someone) passes
 * exactly that instead of a whole per-request WorkContext; a WorkContext is one too.
 */
import type { Logger } from '@slack/bolt';
import type { Store } from '../../store/index.js';
import type { WorkClient } from '../../workapi/client.js';

export interface TeamScope {
  teamId: string;
  readonly work: WorkClient;
  store: Store;
  logger: Logger;
}
