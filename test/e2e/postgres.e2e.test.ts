/**
 * Worklink on PostgreSQL end to end: `worklink start` as a real process refuses DATABASE_URL
 * without SECRETS_KEY and an unreachable database, each with one sentence; the app started
 * with DATABASE_URL (a real server) against the embedded service takes a signed `/work new`,
 * creates the task from the form, and the assignee's DM goes out — all kept in PostgreSQL.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgDatabase } from '../../src/store/pg/index.js';
import { answeredView, stateFor, type ViewJson, viewOf } from '../slack/tasks/helpers.js';
import { type Harness, startHarness } from '../support/harness.js';
import { usePostgres } from '../support/postgres.js';

const root = new URL('../../', import.meta.url).pathname;
const postgres = usePostgres();

/** `worklink start` with only `env`; resolves with its exit code and stderr. */
function start(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'start'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

const httpMode = { SLACK_BOT_TOKEN: 'xoxb-unused', SLACK_SIGNING_SECRET: 'sig', PORT: '0' };

describe('worklink start with DATABASE_URL', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'worklink-pg-start-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses to start without SECRETS_KEY, naming it', async () => {
    const url = await postgres.freshDatabase();
    const dataDir = join(dir, 'never-made');
    const { code, stderr } = await start({ ...httpMode, DATA_DIR: dataDir, DATABASE_URL: url });
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^worklink: DATABASE_URL is set but SECRETS_KEY is missing: instances sharing one database must share one key .*openssl rand -hex 32`\.\n$/,
    );
    expect(existsSync(dataDir)).toBe(false);
  });

  it('says so in one sentence when the database cannot be opened', async () => {
    const server = await postgres.server();
    const { code, stderr } = await start({
      ...httpMode,
      DATA_DIR: dir,
      // The test server's port, one database that does not exist, a password that must not show.
      DATABASE_URL: `postgres://postgres:hunter2@127.0.0.1:${server.port}/no_such_database`,
      SECRETS_KEY: randomBytes(32).toString('hex'),
    });
    expect(code).toBe(1);
    expect(stderr).toBe(
      'worklink: The PostgreSQL database at DATABASE_URL could not be opened: database "no_such_database" does not exist.\n',
    );
  });
});

describe('the app on PostgreSQL', () => {
  let h: Harness;
  beforeAll(async () => {
    const databaseUrl = await postgres.freshDatabase();
    h = await startHarness({
      connect: true,
      configure: (config) => ({ ...config, databaseUrl, secretsKey: randomBytes(32) }),
    });
  });
  afterAll(() => h?.stop());

  it('takes a signed /work new and DMs the assignee, keeping it all in PostgreSQL', async () => {
    const db = pgDatabase(h.worklink.store);
    expect(db).toBeDefined();
    const website = h.seed.projects[0]!;
    await h.worklink.store.channelProjects.link(
      h.teamId,
      'C_GENERAL',
      website.projectId,
      h.users.alice.id,
    );

    const res = await h.slack.slashCommand('new');
    expect(res.status).toBe(200);
    const open = await h.fake.waitForCall('views.open', (c) => c.body.trigger_id === res.triggerId);
    const id = (await answeredView(h, open)).id;
    const update = await h.fake.waitForCall('views.update', (c) => c.body.view_id === id);
    const view = { ...viewOf(update), id } as ViewJson;
    const bob = h.seed.users.find((u) => u.name.startsWith('Bob'))!;
    const submitted = await h.slack.viewSubmission({
      callbackId: view.callback_id!,
      id: view.id,
      privateMetadata: view.private_metadata,
      blocks: view.blocks,
      values: stateFor(view, {
        task_name_input: 'Kept in Postgres',
        task_assignees_input: [bob.id],
      }),
    });
    expect(submitted.status).toBe(200);

    const dm = await h.fake.waitForCall(
      'chat.postMessage',
      (c) =>
        c.body.channel === h.users.bob.id && JSON.stringify(c.body).includes('Kept in Postgres'),
    );
    expect(dm.body.text).toMatch(/assigned you \*Kept in Postgres\*/);
    const outboxRows = () =>
      db!.rows<{ status: string; slack_user_id: string }>(
        "SELECT status, slack_user_id FROM notify_outbox WHERE task_name = 'Kept in Postgres'",
      );
    await h.waitFor(async () => (await outboxRows())[0]?.status === 'sent');
    expect(await outboxRows()).toEqual([{ status: 'sent', slack_user_id: h.users.bob.id }]);
    // The task index and the DM's record are in PostgreSQL too; no SQLite file was made.
    expect((await h.worklink.store.taskIndex.search(h.teamId, 'postgres kept'))[0]?.name).toBe(
      'Kept in Postgres',
    );
    expect(existsSync(join(h.dataDir, 'worklink.db'))).toBe(false);
  });
});
