/**
 * The app's store as configured: PostgreSQL when DATABASE_URL is set (every instance on one
 * database), else SQLite in DATA_DIR. The PostgreSQL engine is loaded only when used, so a
 * SQLite start does not pay for it.
 */
import type { AppConfig } from '../config.js';
import { errMessage } from '../error-message.js';
import type { Logger } from '../logger.js';
import { makePrivateDir } from '../private-files.js';
import type { Store } from './contract.js';
import { createSecretBox } from './crypto.js';
import { openStore } from './sqlite/open.js';

/** The database could not be opened; `message` is one sentence for the person starting it. */
export class StoreOpenError extends Error {
  override readonly name = 'StoreOpenError';
}

export async function openConfiguredStore(
  config: Pick<AppConfig, 'dataDir' | 'databaseUrl' | 'databasePoolSize' | 'secretsKey'>,
  logger?: Logger,
): Promise<Store> {
  if (!config.databaseUrl) return openStore(config.dataDir, { secretsKey: config.secretsKey });
  if (!config.secretsKey) {
    // loadConfig refuses this; a configuration built in code must not fall back to a key file.
    throw new StoreOpenError('DATABASE_URL needs SECRETS_KEY: the store was not opened.');
  }
  // The embedded service and the sandbox keep their files in DATA_DIR still.
  makePrivateDir(config.dataDir);
  const { openPgStore } = await import('./pg/index.js');
  try {
    return await openPgStore({
      url: config.databaseUrl,
      poolSize: config.databasePoolSize,
      dataDir: config.dataDir,
      secrets: createSecretBox(config.secretsKey),
      logger,
    });
  } catch (e) {
    // pg's messages name the host and the problem, never the password. A refused connection
    // to several addresses at once (localhost) is an AggregateError without a message.
    const reason = errMessage(e) || (e as NodeJS.ErrnoException).code || 'no answer';
    throw new StoreOpenError(
      `The PostgreSQL database at DATABASE_URL could not be opened: ${reason.replace(/\.$/, '')}.`,
    );
  }
}
