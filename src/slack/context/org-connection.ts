/**
 * An organisation's connection (Enterprise Grid): an admin may connect one service key for
 * every workspace of the organisation (`/work connect org`, connection/org-commands.ts). It is
 * kept as the connection of the enterprise id itself (`E…`; team ids start with `T`), and a
 * workspace of the organisation that has no connection of its own takes a copy of it the
 * first time it uses Worklink — from then on it is an ordinary workspace connection, so the
 * watcher, the index, the digest and the DMs work per workspace as everywhere else. A
 * workspace's own `/work connect` replaces its copy; a copy is recognised by holding the
 * organisation's key (so a new organisation key reaches the copies, and `disconnect org`
 * removes them).
 */
import type { Logger } from '@slack/bolt';
import { errMessage } from '../../error-message.js';
import type { Connection, Store } from '../../store/index.js';

/** The organisation's own connection, if an admin made one. */
export async function orgConnection(
  store: Store,
  enterpriseId: string | undefined,
): Promise<Connection | undefined> {
  if (!enterpriseId?.startsWith('E')) return undefined;
  return store.connections.get(enterpriseId);
}

/**
 * For a workspace with no connection of its own: a copy of its organisation's connection,
 * saved as the workspace's (undefined when the organisation has none).
 */
export async function inheritOrgConnection(
  store: Store,
  logger: Pick<Logger, 'info' | 'warn'>,
  teamId: string,
  enterpriseId: string | undefined,
): Promise<Connection | undefined> {
  if (!teamId || teamId === enterpriseId) return undefined;
  let org: Connection | undefined;
  try {
    org = await orgConnection(store, enterpriseId);
  } catch (e) {
    logger.warn(`The connection of organisation ${enterpriseId} cannot be read: ${errMessage(e)}`);
    return undefined;
  }
  if (!org) return undefined;
  const copy: Connection = { ...org, teamId, enterpriseId: org.teamId };
  await store.connections.save(copy);
  logger.info(`Team ${teamId} uses the connection of its organisation ${org.teamId}.`);
  return copy;
}

/** The workspaces of the organisation that use its connection (hold its key). */
export async function orgCopies(store: Store, org: Connection): Promise<string[]> {
  const teams = (await store.connections.list()).filter(
    (c) => c.enterpriseId === org.teamId && c.teamId !== org.teamId,
  );
  const copies: string[] = [];
  for (const info of teams) {
    const c = await store.connections.get(info.teamId).catch(() => undefined);
    if (c && c.apiKey === org.apiKey) copies.push(c.teamId);
  }
  return copies;
}
