/** Environment → config: each mode, and one sentence naming the variable for each mistake. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

const HTTP = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 'sig' };
const OAUTH = {
  SLACK_CLIENT_ID: '123.456',
  SLACK_CLIENT_SECRET: 'cs',
  SLACK_STATE_SECRET: 'ss',
  SLACK_SIGNING_SECRET: 'sig',
};

function problem(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    const message = (e as Error).message;
    // One sentence: a single full stop at the very end, nothing after it.
    expect(message).toMatch(/^[^\n]+[.]$/);
    return message;
  }
  throw new Error('expected a ConfigError');
}

describe('modes', () => {
  it('no Slack credentials → sandbox, with defaults', () => {
    expect(loadConfig({})).toEqual({
      slack: { mode: 'sandbox' },
      slackApiUrl: undefined,
      port: 3000,
      workApi: undefined,
      dataDir: './data',
      secretsKey: undefined,
      workEventsSecret: undefined,
      logLevel: 'info',
      workPollSeconds: 60,
      dmBurstSeconds: 60,
    });
  });

  it('reads DM_BURST_SECONDS: 0 turns grouping off; anything else odd is one sentence', () => {
    expect(loadConfig({ DM_BURST_SECONDS: '0' }).dmBurstSeconds).toBe(0);
    expect(loadConfig({ DM_BURST_SECONDS: '30' }).dmBurstSeconds).toBe(30);
    for (const bad of ['-1', '2.5', 'soon', '7200']) {
      expect(() => loadConfig({ DM_BURST_SECONDS: bad })).toThrow(
        `DM_BURST_SECONDS must be a whole number of seconds from 0 (off) to 3600, not "${bad}".`,
      );
    }
  });

  it('reads WORK_POLL_SECONDS: 0 turns the watcher off; anything else odd is one sentence', () => {
    expect(loadConfig({ WORK_POLL_SECONDS: '0' }).workPollSeconds).toBe(0);
    expect(loadConfig({ WORK_POLL_SECONDS: '15' }).workPollSeconds).toBe(15);
    for (const bad of ['-1', '1.5', 'soon', '90000']) {
      expect(() => loadConfig({ WORK_POLL_SECONDS: bad })).toThrow(
        `WORK_POLL_SECONDS must be a whole number of seconds from 0 (off) to 86400, not "${bad}".`,
      );
    }
  });

  it('reads DATABASE_POOL_SIZE: unset is the store default; anything odd is one sentence', () => {
    expect(loadConfig({}).databasePoolSize).toBeUndefined();
    expect(loadConfig({ DATABASE_POOL_SIZE: '25' }).databasePoolSize).toBe(25);
    for (const bad of ['0', '1.5', 'many', '101']) {
      expect(() => loadConfig({ DATABASE_POOL_SIZE: bad })).toThrow(
        `DATABASE_POOL_SIZE must be a whole number of connections from 1 to 100, not "${bad}".`,
      );
    }
  });

  it('reads WORK_INDEX_READS_PER_MINUTE: unset is the default; anything odd is one sentence', () => {
    expect(loadConfig({}).workIndexReadsPerMinute).toBeUndefined();
    expect(loadConfig({ WORK_INDEX_READS_PER_MINUTE: '1700' }).workIndexReadsPerMinute).toBe(1700);
    for (const bad of ['0', '-5', '2.5', 'lots', '10001']) {
      expect(() => loadConfig({ WORK_INDEX_READS_PER_MINUTE: bad })).toThrow(
        `WORK_INDEX_READS_PER_MINUTE must be a whole number of reads a minute from 1 to 10000, not "${bad}".`,
      );
    }
  });

  it('bot token + signing secret → http', () => {
    expect(loadConfig(HTTP).slack).toEqual({
      mode: 'http',
      botToken: 'xoxb-1',
      signingSecret: 'sig',
    });
  });

  it('app token + bot token → socket', () => {
    expect(loadConfig({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1' }).slack).toEqual({
      mode: 'socket',
      botToken: 'xoxb-1',
      appToken: 'xapp-1',
      signingSecret: undefined,
    });
  });

  it('client id + secret + state secret + signing secret → oauth', () => {
    expect(loadConfig(OAUTH).slack.mode).toBe('oauth');
  });

  it('reads the other settings', () => {
    const key = 'ab'.repeat(32);
    const config = loadConfig({
      ...HTTP,
      SLACK_API_URL: 'http://127.0.0.1:4000/api',
      PORT: '8080',
      WORK_API_URL: 'https://work.example.com/v1.0/',
      WORK_ALT_API_URL: 'https://work.example.com/api/v1',
      DATA_DIR: '/var/lib/worklink',
      SECRETS_KEY: key,
      WORK_EVENTS_SECRET: 'evsecret',
      LOG_LEVEL: 'DEBUG',
      WORK_MAX_RESPONSE_BYTES: '16MiB',
    });
    expect(config).toMatchObject({
      slackApiUrl: 'http://127.0.0.1:4000/api/',
      port: 8080,
      workApi: {
        baseUrl: 'https://work.example.com/v1.0',
        altUrl: 'https://work.example.com/api/v1',
      },
      dataDir: '/var/lib/worklink',
      workEventsSecret: 'evsecret',
      logLevel: 'debug',
      workMaxResponseBytes: 16 * 1024 * 1024,
    });
    expect(config.secretsKey?.equals(Buffer.from(key, 'hex'))).toBe(true);
    const b64 = Buffer.alloc(32, 7).toString('base64');
    expect(loadConfig({ SECRETS_KEY: b64 }).secretsKey?.equals(Buffer.alloc(32, 7))).toBe(true);
  });

  it('treats empty values as unset', () => {
    expect(
      loadConfig({ SLACK_BOT_TOKEN: '', SLACK_SIGNING_SECRET: '  ', PORT: '' }).slack.mode,
    ).toBe('sandbox');
  });
});

describe('one sentence naming the variable', () => {
  const cases: [string, Record<string, string>, RegExp][] = [
    [
      'bot token alone',
      { SLACK_BOT_TOKEN: 'xoxb-1' },
      /^SLACK_BOT_TOKEN is set but SLACK_SIGNING_SECRET or SLACK_APP_TOKEN is missing: HTTP mode needs SLACK_SIGNING_SECRET, Socket Mode needs SLACK_APP_TOKEN\.$/,
    ],
    [
      'signing secret alone',
      { SLACK_SIGNING_SECRET: 'sig' },
      /^SLACK_SIGNING_SECRET is set but SLACK_BOT_TOKEN is missing/,
    ],
    [
      'app token alone',
      { SLACK_APP_TOKEN: 'xapp-1' },
      /^SLACK_APP_TOKEN is set but SLACK_BOT_TOKEN is missing/,
    ],
    [
      'wrong bot token kind',
      { ...HTTP, SLACK_BOT_TOKEN: 'xoxp-1' },
      /^SLACK_BOT_TOKEN must be a bot token/,
    ],
    [
      'wrong app token kind',
      { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xoxb-2' },
      /^SLACK_APP_TOKEN must be/,
    ],
    [
      'client id alone',
      { SLACK_CLIENT_ID: '1' },
      /^SLACK_CLIENT_ID is set but SLACK_CLIENT_SECRET and SLACK_STATE_SECRET are missing/,
    ],
    [
      'state secret missing',
      { ...OAUTH, SLACK_STATE_SECRET: '' },
      /^SLACK_CLIENT_ID is set but SLACK_STATE_SECRET is missing/,
    ],
    [
      'oauth without signing secret',
      { ...OAUTH, SLACK_SIGNING_SECRET: '' },
      /^SLACK_CLIENT_ID is set but SLACK_SIGNING_SECRET is missing/,
    ],
    [
      'bad port',
      { PORT: 'eighty' },
      /^PORT must be a whole number from 0 to 65535, not "eighty"\.$/,
    ],
    ['port too big', { PORT: '70000' }, /^PORT must be/],
    [
      'bad Slack API URL',
      { SLACK_API_URL: 'not a url' },
      /^SLACK_API_URL must be an http\(s\) URL/,
    ],
    [
      'work URL without alt',
      { WORK_API_URL: 'https://w.example.com/v1.0' },
      /^WORK_API_URL is set but WORK_ALT_API_URL is missing/,
    ],
    [
      'alt URL without work URL',
      { WORK_ALT_API_URL: 'https://w.example.com/api/v1' },
      /^WORK_ALT_API_URL is set but WORK_API_URL is missing/,
    ],
    [
      'bad work URL',
      { WORK_API_URL: 'ftp://x', WORK_ALT_API_URL: 'https://w.example.com/api/v1' },
      /^WORK_API_URL must be an http\(s\) URL/,
    ],
    [
      'short secrets key',
      { SECRETS_KEY: 'abcd' },
      /^SECRETS_KEY must be 64 hex characters or the base64 of 32 bytes/,
    ],
    [
      'database without a secrets key',
      { DATABASE_URL: 'postgres://w@db.example.com/worklink' },
      /^DATABASE_URL is set but SECRETS_KEY is missing: .*a key file in one instance's DATA_DIR cannot serve the others/,
    ],
    [
      'database URL of another kind',
      { DATABASE_URL: 'mysql://w@db.example.com/worklink', SECRETS_KEY: 'a'.repeat(64) },
      /^DATABASE_URL must be a PostgreSQL URL such as postgres:/,
    ],
    ['bad log level', { LOG_LEVEL: 'loud' }, /^LOG_LEVEL must be one of debug, info, warn, error/],
    [
      'tiny response limit',
      { WORK_MAX_RESPONSE_BYTES: '12' },
      /^WORK_MAX_RESPONSE_BYTES must be a size of at least 1024 bytes/,
    ],
  ];
  for (const [name, env, expected] of cases) {
    it(name, () => {
      expect(problem(env)).toMatch(expected);
    });
  }

  it('never echoes a secret value', () => {
    const secret = 'f'.repeat(63);
    expect(problem({ SECRETS_KEY: secret })).not.toContain(secret);
    expect(problem({ DATABASE_URL: 'mysql://w:hunter2@db/w' })).not.toContain('hunter2');
  });

  it('takes a PostgreSQL URL with a secrets key', () => {
    const url = 'postgresql://w:p%40ss@db.example.com:5432/worklink?sslmode=require';
    const config = loadConfig({ DATABASE_URL: url, SECRETS_KEY: 'a'.repeat(64) });
    expect(config.databaseUrl).toBe(url);
    expect(loadConfig({}).databaseUrl).toBeUndefined();
  });
});
