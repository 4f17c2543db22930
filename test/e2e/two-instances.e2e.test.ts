/**
 * Two Worklink processes on one PostgreSQL database, started the production way (`worklink
 * start`, configured by DATABASE_URL, SECRETS_KEY, SLACK_* and WORK_API_URL only), behind no
 * balancer: signed `/work add` commands go to both, each task with 20 assignees. Slack (the
 * fake in this process) answers DMs after 300 ms and limits the team to 50 a second and each
 * DM channel to one a second. While DMs are being delivered, one process is killed with
 * SIGKILL — at a moment when it holds a DM that Slack already has but it never marked sent.
 *
 * Proven: every assignee of every task got exactly one DM (no loss, no duplicate: the dead
 * process's rows were taken over when their leases ran out and reconciled against the DM's
 * history, not resent), and the survivor kept answering commands, whose DMs went out too.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { openConfiguredStore } from '../../src/store/open.js';
import { pgDatabase } from '../../src/store/pg/index.js';
import { SIGNING_SECRET, SLACK_USERS, TEAM_ID, waitFor } from '../support/harness.js';
import { type Instance, startInstance } from '../support/instances.js';
import { dmCalls, dmCountsByOutboxId, scriptRateLimit } from '../support/notify-slack.js';
import { usePostgres } from '../support/postgres.js';
import { CHANNEL, type ScaleFixture, startScaleFixture } from '../support/scale-fixture.js';
import { SlackRequests } from '../support/slack-requests.js';

const PEOPLE = 20;
const postgres = usePostgres();
const dataDir = mkdtempSync(join(tmpdir(), 'worklink-two-instances-'));
let fixture: ScaleFixture;
let store: Store;
const instances: Instance[] = [];

beforeAll(async () => {
  const databaseUrl = await postgres.freshDatabase();
  fixture = await startScaleFixture({ dataDir, databaseUrl, people: PEOPLE });
  // The test's own look at the database the instances share.
  store = await openConfiguredStore({ dataDir, databaseUrl, secretsKey: fixture.secretsKey });
  for (let i = 0; i < 2; i++) instances.push(await startInstance(fixture.env()));
}, 120_000);

afterAll(async () => {
  await Promise.all(instances.map((i) => i.stop()));
  await store?.close();
  await fixture?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const requestsTo = (instance: Instance) =>
  new SlackRequests({
    url: instance.eventsUrl,
    signingSecret: SIGNING_SECRET,
    fake: fixture.fake,
    teamId: TEAM_ID,
    userId: SLACK_USERS.alice.id,
    channelId: CHANNEL,
  });

/** `/work add <name> <@U_P001> … <@U_P020>` to an instance; the card says it was made. */
async function addTask(instance: Instance, name: string): Promise<void> {
  const mentions = fixture.people.map((p) => `<@${p.id}|${p.name}>`).join(' ');
  const res = await requestsTo(instance).slashCommand(`add ${name} ${mentions}`);
  expect(res.status).toBe(200);
  await fixture.fake.waitForCall(
    'chat.postMessage',
    (c) => c.body.channel === CHANNEL && JSON.stringify(c.body).includes(name),
    15_000,
  );
}

const rows = () =>
  pgDatabase(store)!.rows<{ id: number; status: string; claimed_by: string | null }>(
    "SELECT id, status, claimed_by FROM notify_outbox WHERE task_name LIKE 'Scale %'",
  );

it('loses no DM and sends none twice when one of two instances is killed mid-delivery; the other keeps answering', async () => {
  const { fake } = fixture;
  scriptRateLimit(fake, { perSecond: 50, perChannel: true, latencyMs: 300 });

  // Commands to both instances: 6 tasks × 20 assignees.
  const before = ['Scale one', 'Scale two', 'Scale three', 'Scale four', 'Scale five', 'Scale six'];
  await Promise.all(before.map((name, i) => addTask(instances[i % 2]!, name)));

  // Kill an instance once a third of the DMs are out, while it holds a DM Slack already has
  // (posted, its answer not back): the DM that must not be sent again. The one killed is the
  // one delivering: one instance paces a team at a time (its lease on the team's pace), so
  // the other takes the team over when that lease runs out. (Up to 90 s: in a whole-suite
  // run the first third has taken over 30 s.)
  const holderOf = (instance: Instance) => `:${instance.pid}:`;
  const atKill = await waitFor(
    async () => {
      const now = await rows();
      if (now.filter((r) => r.status === 'sent').length < (before.length * PEOPLE) / 3) return;
      const posted = new Set(dmCountsByOutboxId(fake).keys());
      for (const instance of instances) {
        const held = now.filter(
          (r) => r.status === 'sending' && r.claimed_by?.includes(holderOf(instance)),
        );
        if (held.some((r) => posted.has(r.id))) return { instance, held };
      }
      return undefined;
    },
    { timeoutMs: 90_000, intervalMs: 5 },
  );
  const doomed = atKill.instance;
  const survivor = instances.find((i) => i !== doomed)!;
  const mine = holderOf(doomed);
  doomed.child.kill('SIGKILL');
  await doomed.exited;
  const heldAtKill = (await rows()).filter(
    (r) => r.status === 'sending' && r.claimed_by?.includes(mine),
  );
  // Not vacuous: DMs were in flight at the kill, and some of them had reached Slack.
  expect(atKill.held.length).toBeGreaterThan(0);
  expect(heldAtKill.length).toBeGreaterThan(0);
  const postedNotMarked = heldAtKill.filter((r) => dmCountsByOutboxId(fake).has(r.id));
  expect(postedNotMarked.length).toBeGreaterThan(0);
  const delivered = (await rows()).filter((r) => r.status === 'sent').length;
  expect(delivered).toBeGreaterThan(0);
  expect(delivered).toBeLessThan(before.length * PEOPLE);

  // The survivor keeps answering: two more tasks, through it alone.
  const after = ['Scale seven', 'Scale eight'];
  for (const name of after) await addTask(survivor, name);
  const help = await requestsTo(survivor).slashCommand('help');
  expect(help.status).toBe(200);

  // Everything is delivered: the dead process's rows once their 30 s leases ran out.
  const total = (before.length + after.length) * PEOPLE;
  await waitFor(async () => (await rows()).filter((r) => r.status === 'sent').length === total, {
    timeoutMs: 120_000,
    intervalMs: 200,
  });

  // Exactly one DM per assignee per task.
  const tasks = [...before, ...after];
  for (const name of tasks) {
    const dms = dmCalls(fake).filter((c) => JSON.stringify(c.body).includes(`*${name}*`));
    expect(dms.map((c) => c.body.channel).sort()).toEqual(fixture.people.map((p) => p.id).sort());
  }
  expect(dmCalls(fake)).toHaveLength(total);
  expect([...dmCountsByOutboxId(fake).values()].every((n) => n === 1)).toBe(true);
  // The interrupted rows were reconciled (history read), and finished by the survivor.
  expect(fake.callsOf('conversations.history').length).toBeGreaterThanOrEqual(
    postedNotMarked.length,
  );
  const finished = await pgDatabase(store)!.rows<{ claimed_by: string }>(
    'SELECT claimed_by FROM notify_outbox WHERE id = ANY($1::bigint[])',
    [heldAtKill.map((r) => r.id)],
  );
  expect(finished.every((r) => !r.claimed_by.includes(mine))).toBe(true);
}, 240_000);
