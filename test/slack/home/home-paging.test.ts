/**
 * App Home pages through my tasks: 10 at a time, "11–14 of 14", Previous / Next buttons that
 * publish Home at that page — not "…and 4 more" with no way to see them.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ACTION } from '../../../src/slack/ui/block-ids.js';
import { type Harness, startHarness } from '../../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ connect: true });
});
afterAll(() => h?.stop());

it('pages through my tasks on Home', async () => {
  const website = h.seed.projects[0]!.projectId;
  await h.worklink.store.knownProjects.remember(h.teamId, website, 'Website relaunch');
  const work = h.worklink.deps.workClients.for((await h.worklink.store.connections.get(h.teamId))!);
  const alice = h.seed.users.find((u) => u.email.startsWith('alice'))!.id;
  for (let i = 1; i <= 14; i++) {
    await work.createTask({ projectId: website, name: `Home chore ${i}`, taskUsers: [alice] });
  }
  await h.slack.event({ type: 'app_home_opened', user: h.users.alice.id, tab: 'home' });
  const first = JSON.stringify((await h.fake.waitForCall('views.publish')).body.view);
  const total = Number(/1–10 of (\d+) · page 1 of 2/.exec(first)?.[1]);
  expect(total).toBeGreaterThanOrEqual(14);
  expect(first).toContain(`${ACTION.homeMinePage}:next`);
  expect(first).not.toContain(`${ACTION.homeMinePage}:prev`);

  h.fake.reset();
  const res = await h.slack.blockAction({ actionId: `${ACTION.homeMinePage}:next`, value: '1' });
  expect(res.status).toBe(200);
  const second = JSON.stringify((await h.fake.waitForCall('views.publish')).body.view);
  expect(second).toContain(`11–${total} of ${total} · page 2 of 2`);
  expect(second).toContain(`${ACTION.homeMinePage}:prev`);
});
