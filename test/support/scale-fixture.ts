/**
 * What several Worklink instances need around them, for the several-instances end-to-end
 * test and bench:scale: the embedded service (seeded, plus `people` more users, so a task can
 * have many assignees) on its own port, a fake Slack whose users match them by e-mail, the
 * team connected and #general linked to the seed's first project in the app's database
 * (PostgreSQL at `databaseUrl`, else SQLite in `dataDir`), and the environment an instance
 * starts with (test/support/instances.ts).
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import {
  type SeedResult,
  type ServiceHandle,
  seedDemoWorkspace,
  startService,
} from '../../src/service/index.js';
import { createUser } from '../../src/service/users.js';
import { openConfiguredStore } from '../../src/store/open.js';
import { type FakeSlack, type FakeSlackUser, startFakeSlack } from './fake-slack.js';
import {
  BOT_TOKEN,
  SIGNING_SECRET,
  SLACK_USERS,
  saveVerifiedConnection,
  TEAM_ID,
} from './harness.js';
import { SureWorkClient } from './sure-work.js';

export const CHANNEL = 'C_GENERAL';

export interface ScaleFixture {
  fake: FakeSlack;
  service: ServiceHandle;
  seed: SeedResult;
  /** The extra people, as Slack users (U_P001…), each matching a service user. */
  people: FakeSlackUser[];
  secretsKey: Buffer;
  /** An instance's environment: the shared database (or `dataDir`'s SQLite) and the fakes. */
  env(extra?: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}

export interface ScaleFixtureOptions {
  /** DATA_DIR: the service's file, and the app's SQLite file when there is no databaseUrl. */
  dataDir: string;
  databaseUrl?: string;
  people: number;
}

export async function startScaleFixture(options: ScaleFixtureOptions): Promise<ScaleFixture> {
  const { dataDir, databaseUrl } = options;
  const service = await startService({
    dbPath: join(dataDir, 'service.db'),
    port: 0,
    host: '127.0.0.1',
  });
  const seed = seedDemoWorkspace(service.db);
  const people: FakeSlackUser[] = [];
  for (let i = 1; i <= options.people; i++) {
    const n = String(i).padStart(3, '0');
    const email = `p${n}@example.com`;
    createUser(service.db, seed.workspaceId, { name: `Person ${n}`, email });
    people.push({ id: `U_P${n}`, name: `p${n}`, realName: `Person ${n}`, email, tz: 'UTC' });
  }
  const fake = await startFakeSlack({
    teamId: TEAM_ID,
    users: [...Object.values(SLACK_USERS), ...people],
  });
  const secretsKey = randomBytes(32);
  const store = await openConfiguredStore({ dataDir, databaseUrl, secretsKey });
  try {
    const work = new SureWorkClient({
      baseUrl: service.baseUrl,
      altUrl: service.altUrl,
      apiKey: seed.apiKey,
    });
    await saveVerifiedConnection(store, seed, SLACK_USERS.alice.id, work);
    const [project] = seed.projects;
    await store.linkChannel(TEAM_ID, CHANNEL, project!, SLACK_USERS.alice.id);
  } finally {
    await store.close();
  }
  return {
    fake,
    service,
    seed,
    people,
    secretsKey,
    env: (extra = {}) => ({
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      DATA_DIR: dataDir,
      SECRETS_KEY: secretsKey.toString('hex'),
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: fake.apiUrl,
      WORK_API_URL: service.baseUrl,
      WORK_ALT_API_URL: service.altUrl,
      WORK_POLL_SECONDS: '0',
      // One DM per assignee per task is what scale runs count (and time): no grouping of a
      // person's burst (test/slack/notify/dm-bursts.test.ts covers that).
      DM_BURST_SECONDS: '0',
      LOG_LEVEL: 'warn',
      ...extra,
    }),
    async close() {
      await fake.close();
      await service.close();
    },
  };
}
