/**
 * One token refresh per installation at a time (issue 24, finding 6). With token rotation,
 * Bolt's installer refreshes a token that expires within two hours inside `authorize`, and a
 * refresh token works once: two requests arriving together both refreshed, and the second
 * refresh used a token Slack had already rotated away.
 *
 * So `authorize` is single-flight per installation: calls that arrive while one runs share its
 * answer. Across instances on one database, an instance about to refresh takes the lease
 * `token-refresh:<installation>` first (src/store/tables/leases/); one that finds it held waits
 * for the holder's refreshed installation to be saved and then authorizes with it.
 */
import type { Logger } from '@slack/bolt';
import type { AuthorizeResult, InstallationQuery, InstallProvider } from '@slack/oauth';
import { newInstanceId } from '../../instance-id.js';
import type { Store } from '../../store/index.js';

/** Bolt's window: a token that expires within it is refreshed. */
const EXPIRY_WINDOW_S = 2 * 60 * 60;
/** Longer than a refresh takes (one oauth.v2.access call and one save). */
const LEASE_MS = 30_000;
const POLL_MS = 200;

export interface TokenRefreshOptions {
  store: Pick<Store, 'installations' | 'leases'>;
  logger: Pick<Logger, 'warn'>;
  instanceId?: string;
  now?: () => number;
}

/** Makes `installer.authorize` single-flight per installation, in this process and across. */
export function singleFlightAuthorize(installer: InstallProvider, options: TokenRefreshOptions) {
  const original = installer.authorize.bind(installer);
  const holder = options.instanceId ?? newInstanceId();
  const now = options.now ?? Date.now;
  const inFlight = new Map<string, Promise<AuthorizeResult>>();

  const expiring = async (source: InstallationQuery<boolean>): Promise<boolean> => {
    const install = await options.store.installations
      .fetchInstallation(source)
      .catch(() => undefined);
    const limit = now() / 1000 + EXPIRY_WINDOW_S;
    return [install?.bot, install?.user].some(
      (t) => t?.refreshToken && typeof t.expiresAt === 'number' && t.expiresAt <= limit,
    );
  };

  /** Authorizes; a refresh it would make is made by one instance only. */
  const authorize = async (source: InstallationQuery<boolean>, key: string) => {
    if (!(await expiring(source))) return original(source);
    const lease = `token-refresh:${key}`;
    const until = now() + LEASE_MS;
    for (;;) {
      const { taken } = await options.store.leases.claim([lease], holder, now(), LEASE_MS);
      if (taken.length > 0) {
        try {
          return await original(source);
        } finally {
          await options.store.leases.finish(lease, holder, now()).catch(() => false);
        }
      }
      // Another instance is refreshing: its saved installation ends the wait.
      await new Promise((r) => setTimeout(r, POLL_MS));
      if (!(await expiring(source))) return original(source);
      if (now() > until) {
        options.logger.warn(
          `Another instance held the token refresh of ${key} for over ${LEASE_MS / 1000} s; refreshing here.`,
        );
        return original(source);
      }
    }
  };

  installer.authorize = (source) => {
    const key = `${source.enterpriseId ?? '-'}:${source.isEnterpriseInstall ? '-' : (source.teamId ?? '-')}`;
    const running = inFlight.get(key);
    if (running !== undefined) return running;
    const answer = authorize(source, key).finally(() => inFlight.delete(key));
    inFlight.set(key, answer);
    return answer;
  };
}
