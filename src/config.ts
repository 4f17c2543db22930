/**
 * Environment → typed configuration, in one place.
 *
 * The Slack mode follows from which credentials are set:
 * - oauth   SLACK_CLIENT_ID + SLACK_CLIENT_SECRET + SLACK_STATE_SECRET + SLACK_SIGNING_SECRET
 *           (multi-workspace; installations kept in the store). Wins over the others.
 * - socket  SLACK_APP_TOKEN + SLACK_BOT_TOKEN (SLACK_SIGNING_SECRET optional, unused).
 * - http    SLACK_SIGNING_SECRET + SLACK_BOT_TOKEN.
 * - sandbox no Slack credentials at all: the local Slack stand-in (src/sandbox).
 * A partial or malformed setting is a ConfigError whose message is ONE sentence naming the
 * variable, so `npm start` can print it as is (no stack trace).
 */
import { z } from 'zod';
import { type LinkSettings, linkSettings } from './link-settings.js';

/** HTTP server limits (defaults: DEFAULT_HTTP_LIMITS in src/slack/start/http-guard.ts). */
export interface HttpLimits {
  /** Headers must arrive within this (Node answers 408 and closes). */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this. */
  requestTimeoutMs: number;
  /** Open connections at most (connection-limits.ts shares them out). */
  maxConnections: number;
  /** Connections one client address may hold before any request on them is signed. */
  perAddressConnections: number;
  /** Connections kept for signed (Slack's) requests: unsigned ones never take them. */
  reservedConnections: number;
  /** An unsigned connection without a request head this long is stale (connection-limits.ts). */
  staleMs?: number;
  /** /slack/events bodies; a full modal's view_submission stays far below. */
  slackBodyBytes: number;
}

export type LogLevelName = 'debug' | 'info' | 'warn' | 'error';

export type SlackSettings =
  | { mode: 'http'; botToken: string; signingSecret: string }
  | { mode: 'socket'; botToken: string; appToken: string; signingSecret?: string }
  | {
      mode: 'oauth';
      clientId: string;
      clientSecret: string;
      stateSecret: string;
      signingSecret: string;
    }
  | { mode: 'sandbox' };

export type SlackMode = SlackSettings['mode'];

export interface AppConfig {
  /** How the app talks to Slack; `slack.mode` tells which fields are there. */
  slack: SlackSettings;
  /** Slack Web API base (SLACK_API_URL), always ending in `/`; undefined = Slack's own. */
  slackApiUrl?: string;
  /** HTTP port (PORT, default 3000). */
  port: number;
  /** The external service (WORK_API_URL + WORK_ALT_API_URL); undefined = embedded service. */
  workApi?: { baseUrl: string; altUrl: string };
  /** DATA_DIR, default ./data: worklink.db, service.db, secret.key. */
  dataDir: string;
  /**
   * DATABASE_URL (postgres://…): the app's store in PostgreSQL, shared by every instance;
   * undefined = SQLite in DATA_DIR. Never logged or echoed (it may hold a password).
   */
  databaseUrl?: string;
  /** DATABASE_POOL_SIZE: connections each instance keeps to PostgreSQL (default 10). */
  databasePoolSize?: number;
  /**
   * SECRETS_KEY decoded to 32 bytes; undefined = DATA_DIR/secret.key (generated once).
   * Required with DATABASE_URL.
   */
  secretsKey?: Buffer;
  /** WORK_EVENTS_SECRET: HMAC secret of the service's event deliveries. */
  workEventsSecret?: string;
  /** WORK_MAX_RESPONSE_BYTES: the service's answers past this size are refused unread. */
  workMaxResponseBytes?: number;
  /**
   * WORK_POLL_SECONDS (default 60; 0 = off): how often the watcher looks for new tasks.
   * Undefined (a configuration not read from the environment) is off.
   */
  workPollSeconds?: number;
  /**
   * DM_BURST_SECONDS (default 60; 0 = off): past the first few DMs to one person within this
   * many seconds, the rest go out as one message at its end (notify/dm-gate.ts). Undefined
   * (a configuration not read from the environment) is off.
   */
  dmBurstSeconds?: number;
  /**
   * WORK_INDEX_READS_PER_MINUTE: the task index refresh's service reads a minute per workspace;
   * undefined = the default in sync/task-index-refresh.ts (40).
   */
  workIndexReadsPerMinute?: number;
  /** WORK_TASK_URL, WORK_PROJECT_URL, WORK_SERVICE_NAME: "Open in …" addresses (link-settings.ts). */
  links?: LinkSettings;
  /** HTTP server limits (timeouts, connection cap, body size); defaults in http-guard.ts. */
  httpLimits?: Partial<HttpLimits>;
  logLevel: LogLevelName;
  /** /metrics (docs/metrics.md): served on PORT with this bearer token, and/or on metricsPort. */
  metricsToken?: string;
  metricsPort?: number;
  /** Waits that tests shorten (never read from the environment); undefined = the defaults. */
  waits?: Waits;
}

/** How long some waits last, for tests that would otherwise sit through them. */
export interface Waits {
  /** What a modal submission may wait for the service (SUBMIT_BUDGET_MS, 2.2 s). */
  submitBudgetMs?: number;
  /** Between looks for a create the service did not confirm (tasks/form/follow-up.ts, 2 s). */
  unconfirmedLookMs?: number;
  /** Between a team's live-message updates after a burst (live/live-updates.ts, 1.2 s). */
  liveUpdateIntervalMs?: number;
  /** Between DMs into one channel (notify/channel-pacer.ts, 1.05 s: Slack's 1 a second). */
  dmChannelIntervalMs?: number;
  /** From taking a request in to recording it for replays (start/replay-window.ts, 50 ms). */
  replayFlushMs?: number;
}

/** A wrong or partial setting. `message` is one sentence that names the variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

/** Reads the environment (default `process.env`); throws ConfigError. */
export function loadConfig(env: Env = process.env): AppConfig {
  const get = (name: string): string | undefined => {
    const v = env[name]?.trim();
    return v ? v : undefined;
  };
  const database = databaseUrl(get('DATABASE_URL'));
  const key = secretsKey(get('SECRETS_KEY'));
  if (database && !key) {
    throw new ConfigError(
      "DATABASE_URL is set but SECRETS_KEY is missing: instances sharing one database must share one key for the secrets stored in it (a key file in one instance's DATA_DIR cannot serve the others); set SECRETS_KEY to 64 hex characters, e.g. the output of `openssl rand -hex 32`.",
    );
  }
  return {
    slack: slackSettings(get),
    slackApiUrl: slackApiUrl(get('SLACK_API_URL')),
    port: port(get('PORT')),
    workApi: workApi(get('WORK_API_URL'), get('WORK_ALT_API_URL')),
    dataDir: get('DATA_DIR') ?? './data',
    databaseUrl: database,
    databasePoolSize: poolSize(get('DATABASE_POOL_SIZE')),
    secretsKey: key,
    workEventsSecret: get('WORK_EVENTS_SECRET'),
    workMaxResponseBytes: byteCount('WORK_MAX_RESPONSE_BYTES', get('WORK_MAX_RESPONSE_BYTES')),
    workPollSeconds: pollSeconds(get('WORK_POLL_SECONDS')),
    dmBurstSeconds: burstSeconds(get('DM_BURST_SECONDS')),
    workIndexReadsPerMinute: readsPerMinute(get('WORK_INDEX_READS_PER_MINUTE')),
    links: linkSettings(get, (sentence) => new ConfigError(sentence)),
    logLevel: logLevel(get('LOG_LEVEL')),
    metricsToken: get('METRICS_TOKEN') || undefined,
    metricsPort: get('METRICS_PORT') ? port(get('METRICS_PORT'), 'METRICS_PORT') : undefined,
  };
}

function slackSettings(get: (name: string) => string | undefined): SlackSettings {
  const botToken = get('SLACK_BOT_TOKEN');
  const signingSecret = get('SLACK_SIGNING_SECRET');
  const appToken = get('SLACK_APP_TOKEN');
  const clientId = get('SLACK_CLIENT_ID');
  const clientSecret = get('SLACK_CLIENT_SECRET');
  const stateSecret = get('SLACK_STATE_SECRET');

  if (botToken && !botToken.startsWith('xoxb-')) {
    throw new ConfigError('SLACK_BOT_TOKEN must be a bot token starting with "xoxb-".');
  }
  if (appToken && !appToken.startsWith('xapp-')) {
    throw new ConfigError('SLACK_APP_TOKEN must be an app-level token starting with "xapp-".');
  }

  const oauthNames = ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'SLACK_STATE_SECRET'] as const;
  const oauthValues = [clientId, clientSecret, stateSecret];
  if (oauthValues.some(Boolean)) {
    const missing = oauthNames.filter((_, i) => !oauthValues[i]);
    if (missing.length > 0) {
      const given = oauthNames.find((_, i) => oauthValues[i]);
      throw new ConfigError(
        `${given} is set but ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} missing: multi-workspace OAuth needs SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET.`,
      );
    }
    if (!signingSecret) {
      throw new ConfigError(
        'SLACK_CLIENT_ID is set but SLACK_SIGNING_SECRET is missing: OAuth mode receives requests over HTTP and needs SLACK_SIGNING_SECRET to check them.',
      );
    }
    return {
      mode: 'oauth',
      clientId: clientId!,
      clientSecret: clientSecret!,
      stateSecret: stateSecret!,
      signingSecret,
    };
  }
  if (appToken) {
    if (!botToken) {
      throw new ConfigError(
        'SLACK_APP_TOKEN is set but SLACK_BOT_TOKEN is missing: Socket Mode needs both.',
      );
    }
    return { mode: 'socket', botToken, appToken, signingSecret };
  }
  if (botToken) {
    if (!signingSecret) {
      throw new ConfigError(
        'SLACK_BOT_TOKEN is set but SLACK_SIGNING_SECRET or SLACK_APP_TOKEN is missing: HTTP mode needs SLACK_SIGNING_SECRET, Socket Mode needs SLACK_APP_TOKEN.',
      );
    }
    return { mode: 'http', botToken, signingSecret };
  }
  if (signingSecret) {
    throw new ConfigError(
      'SLACK_SIGNING_SECRET is set but SLACK_BOT_TOKEN is missing: HTTP mode needs both (or set SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET for multi-workspace OAuth).',
    );
  }
  return { mode: 'sandbox' };
}

const httpUrl = z.url({ protocol: /^https?$/ });

function slackApiUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (!httpUrl.safeParse(value).success) {
    throw new ConfigError(
      `SLACK_API_URL must be an http(s) URL such as http://127.0.0.1:4000/api/, not "${value}".`,
    );
  }
  // WebClient appends the method name to this base, so it must end in a slash.
  return value.endsWith('/') ? value : `${value}/`;
}

function port(value: string | undefined, name = 'PORT'): number {
  if (value === undefined) return 3000;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) {
    throw new ConfigError(`${name} must be a whole number from 0 to 65535, not "${value}".`);
  }
  return n;
}

function workApi(baseUrl: string | undefined, altUrl: string | undefined): AppConfig['workApi'] {
  if (!baseUrl && !altUrl) return undefined;
  if (!baseUrl || !altUrl) {
    const [given, missing] = baseUrl
      ? ['WORK_API_URL', 'WORK_ALT_API_URL']
      : ['WORK_ALT_API_URL', 'WORK_API_URL'];
    throw new ConfigError(
      `${given} is set but ${missing} is missing: set both (e.g. https://work.example.com/v1.0 and https://work.example.com/api/v1) or neither to use the embedded service.`,
    );
  }
  for (const [name, url] of [
    ['WORK_API_URL', baseUrl],
    ['WORK_ALT_API_URL', altUrl],
  ] as const) {
    if (!httpUrl.safeParse(url).success) {
      throw new ConfigError(`${name} must be an http(s) URL, not "${url}".`);
    }
  }
  return { baseUrl: baseUrl.replace(/\/+$/, ''), altUrl: altUrl.replace(/\/+$/, '') };
}

/** A size in bytes: a whole number, or one with a KiB/MiB suffix ("16MiB"). */
function byteCount(name: string, value: string | undefined): number | undefined {
  if (!value) return undefined;
  const m = /^(\d+)\s*(KiB|MiB)?$/i.exec(value);
  const unit = m?.[2]?.toLowerCase();
  const n = m ? Number(m[1]) * (unit === 'mib' ? 1024 * 1024 : unit === 'kib' ? 1024 : 1) : 0;
  if (!m || n < 1024) {
    throw new ConfigError(
      `${name} must be a size of at least 1024 bytes, such as 8388608 or 8MiB, not "${value}".`,
    );
  }
  return n;
}

/** A postgres:// or postgresql:// URL. Its value is never echoed: it may hold a password. */
function databaseUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const protocol = URL.canParse(value) ? new URL(value).protocol : undefined;
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
    throw new ConfigError(
      'DATABASE_URL must be a PostgreSQL URL such as postgres://worklink:password@db.example.com:5432/worklink.',
    );
  }
  return value;
}

/** 64 hex characters, or base64 of exactly 32 bytes. The value itself is never echoed. */
function secretsKey(value: string | undefined): Buffer | undefined {
  if (!value) return undefined;
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/]{43}=?$/.test(value)) {
    const bytes = Buffer.from(value, 'base64');
    if (bytes.length === 32) return bytes;
  }
  throw new ConfigError(
    'SECRETS_KEY must be 64 hex characters or the base64 of 32 bytes (e.g. the output of `openssl rand -hex 32`).',
  );
}

function logLevel(value: string | undefined): LogLevelName {
  if (!value) return 'info';
  const v = value.toLowerCase();
  if (v === 'debug' || v === 'info' || v === 'warn' || v === 'error') return v;
  throw new ConfigError(`LOG_LEVEL must be one of debug, info, warn, error, not "${value}".`);
}

/** Whole connections from 1 to 100 (PostgreSQL's default max_connections for every instance). */
function poolSize(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 100) {
    throw new ConfigError(
      `DATABASE_POOL_SIZE must be a whole number of connections from 1 to 100, not "${value}".`,
    );
  }
  return n;
}

/** Whole seconds from 0 (off) to a day; default 60. */
function pollSeconds(value: string | undefined): number {
  if (value === undefined) return 60;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 86_400) {
    throw new ConfigError(
      `WORK_POLL_SECONDS must be a whole number of seconds from 0 (off) to 86400, not "${value}".`,
    );
  }
  return n;
}

/** Whole seconds from 0 (off) to an hour; default 60. */
function burstSeconds(value: string | undefined): number {
  if (value === undefined) return 60;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 3600) {
    throw new ConfigError(
      `DM_BURST_SECONDS must be a whole number of seconds from 0 (off) to 3600, not "${value}".`,
    );
  }
  return n;
}

/** Whole reads a minute from 1 to 10000 (the service's own rate limit is the real ceiling). */
function readsPerMinute(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 10_000) {
    throw new ConfigError(
      `WORK_INDEX_READS_PER_MINUTE must be a whole number of reads a minute from 1 to 10000, not "${value}".`,
    );
  }
  return n;
}
