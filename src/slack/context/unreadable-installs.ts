/**
 * OAuth mode after SECRETS_KEY (or DATA_DIR/secret.key) changed: the stored installations
 * (bot tokens) can no longer be opened, so Bolt cannot authorize any request of those
 * workspaces. Start-up says so in one sentence naming the setting; each request that fails
 * authorization for that reason gets a reply (through its response_url) saying what the admin
 * must do, instead of an empty answer.
 */
import { join } from 'node:path';
import type { Logger } from '@slack/bolt';
import type { AppConfig } from '../../config.js';
import { KEY_FILE } from '../../store/crypto.js';
import { DecryptError, type Store } from '../../store/index.js';

/** The setting that holds the key, as an admin would look for it. */
function keySetting(config: AppConfig): string {
  return config.secretsKey
    ? 'SECRETS_KEY'
    : `DATA_DIR/secret.key (${join(config.dataDir, KEY_FILE)})`;
}

/** One sentence for the log when some installations cannot be opened; undefined when all can. */
export async function unreadableInstallsSentence(
  store: Store,
  config: AppConfig,
  installPath: string,
): Promise<string | undefined> {
  const unreadable = await store.installations.unreadableCount();
  if (unreadable === 0) return undefined;
  const total = await store.installations.count();
  return `${unreadable} of ${total} Slack installations cannot be decrypted because ${keySetting(config)} is not the key they were stored with: restore that key, or have each workspace install Worklink again at ${installPath}.`;
}

/** What the person who acted is told when their workspace's installation cannot be opened. */
export function installUnreadableText(config: AppConfig, installPath: string): string {
  return `Worklink cannot read its installation for this workspace: the server’s ${config.secretsKey ? 'SECRETS_KEY' : 'DATA_DIR/secret.key'} changed since Worklink was installed. An admin must restore that key on the server, or install Worklink again (its ${installPath} page).`;
}

/** Whether the installation serving this team exists but cannot be opened. */
export async function installUnreadable(
  store: Store,
  teamId: string | undefined,
  enterpriseId: string | undefined,
): Promise<boolean> {
  try {
    await store.installations.find(teamId, enterpriseId);
    return false;
  } catch (e) {
    return e instanceof DecryptError;
  }
}

/**
 * From app.error: a request whose authorization failed because its installation cannot be
 * opened gets the sentence above at its response_url (commands, buttons, message shortcuts).
 */
export async function answerUnreadableInstall(
  store: Store,
  config: AppConfig,
  logger: Pick<Logger, 'warn'>,
  args: { body?: unknown; context?: { teamId?: string; enterpriseId?: string } },
  installPath: string,
): Promise<boolean> {
  const body = (args.body ?? {}) as {
    team_id?: string;
    enterprise_id?: string;
    team?: { id?: string } | null;
    enterprise?: { id?: string } | null;
    response_url?: string;
  };
  const teamId = args.context?.teamId ?? body.team_id ?? body.team?.id ?? undefined;
  const enterpriseId =
    args.context?.enterpriseId ?? body.enterprise_id ?? body.enterprise?.id ?? undefined;
  if (!(await installUnreadable(store, teamId, enterpriseId))) return false;
  logger.warn(
    `A request from team ${teamId ?? '-'} could not be authorized: its installation cannot be decrypted.`,
  );
  if (!body.response_url) return true;
  try {
    await fetch(body.response_url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        response_type: 'ephemeral',
        text: installUnreadableText(config, installPath),
      }),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (e) {
    logger.warn(`Could not answer at the response_url: ${(e as Error).message}`);
  }
  return true;
}
