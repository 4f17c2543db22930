/**
 * Matching for rows the worker finds without a recipient — those queued from service events
 * (the receiver answers fast and leaves matching here) and those an announcer could not
 * finish. Fills in what the DM needs (creator's name, project name) on the way; those are
 * best effort, the recipient is not.
 */

import type { Logger } from '@slack/bolt';
import {
  CREATOR_SKIPPED,
  DecryptError,
  NO_SLACK_ACCOUNT,
  type OutboxRow,
  type Store,
} from '../../store/index.js';
import type { WorkClient } from '../../workapi/client.js';
import { orDebug } from '../context/error-replies.js';
import type { ServiceDirectory } from '../context/service-directory.js';
import type { SlackMatcher } from '../context/slack-matcher.js';
import type { WorkClientCache } from '../context/work-clients.js';
import type { Preparation, PrepareRow } from './worker-options.js';

export interface PrepareDeps {
  store: Store;
  workClients: WorkClientCache;
  directory: ServiceDirectory;
  matcher: SlackMatcher;
  logger?: Pick<Logger, 'warn' | 'debug'>;
}

/** Thrown when the service must answer before the row can be matched (retried later). */
export class ServiceUnavailableError extends Error {
  override readonly name = 'ServiceUnavailableError';
}

export function appPreparer(deps: PrepareDeps): PrepareRow {
  const { store } = deps;
  const { directory, matcher } = deps;

  const workFor = async (teamId: string): Promise<WorkClient | undefined> => {
    try {
      const connection = await store.connections.get(teamId);
      return connection ? deps.workClients.for(connection) : undefined;
    } catch (e) {
      if (e instanceof DecryptError) return undefined;
      throw e;
    }
  };

  return async (row: OutboxRow, slack): Promise<Preparation> => {
    if (row.actorServiceUserId && row.serviceUserId === row.actorServiceUserId) {
      return { kind: 'skipped', reason: CREATOR_SKIPPED };
    }
    const fields: Extract<Preparation, { kind: 'ready' }>['fields'] = {};
    const work = await workFor(row.teamId);
    let email = row.serviceUserEmail;
    const needUsers = !email || (!row.creatorLabel && row.actorServiceUserId);
    if (needUsers && work) {
      try {
        const users = await directory.usersOf(row.teamId, work);
        const user = users.get(row.serviceUserId);
        if (!email && user?.email) {
          email = user.email;
          fields.serviceUserEmail = user.email;
          fields.serviceUserName ??= user.name;
        }
        if (!row.creatorLabel && row.actorServiceUserId) {
          const creator = users.get(row.actorServiceUserId)?.name;
          if (creator) fields.creatorLabel = creator;
        }
      } catch (e) {
        // Without an e-mail there is nothing to match on: ask again later.
        if (!email) throw new ServiceUnavailableError(`service users unavailable: ${e}`);
      }
    }
    if (!row.projectName && row.projectId && work) {
      const name = await directory
        .projectName(row.teamId, row.projectId, work)
        .catch(orDebug(deps.logger, `Project name of ${row.projectId}`, undefined));
      if (name) fields.projectName = name;
    }
    const match = await matcher.match(slack, row.teamId, email, row.serviceUserId);
    if (match.kind === 'unmatched') return { kind: 'failed', reason: NO_SLACK_ACCOUNT };
    if (match.slackUserId === row.actorSlackUserId) {
      return { kind: 'skipped', reason: CREATOR_SKIPPED };
    }
    return { kind: 'ready', slackUserId: match.slackUserId, fields };
  };
}
