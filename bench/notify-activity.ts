/**
 * bench:notify's mixed burst: task activity for --people people, all at once, through the
 * activity hub, the DM listener (notify/activity-dms.ts), the outbox and the worker with the
 * app's gate, into the rate-limited fake Slack. Person i created task i, which person i+1 is
 * assigned to; in one shuffled burst person i assigns person i+2 to it, person i+1 comments
 * and completes it. Each assignment and comment is told twice (as the index refresh or a
 * retry would), so the listener must not make a second DM. Expected: person i+2 gets the
 * assignment and the comment, person i (the creator) the comment and the completion — 4 DMs
 * per task — and the actor of each event none.
 */

import { createActivityHub, type TaskActivity } from '../src/activity/hub.js';
import { ServiceDirectory } from '../src/slack/context/service-directory.js';
import { SlackMatcher } from '../src/slack/context/slack-matcher.js';
import { SlackUserDirectory } from '../src/slack/context/slack-users.js';
import { activityDms } from '../src/slack/notify/activity-dms.js';
import { dmGate } from '../src/slack/notify/dm-gate.js';
import type { WorkClient } from '../src/workapi/client.js';
import { startFakeSlack } from '../test/support/fake-slack.js';
import { slackClients, tempStore, testWorker } from '../test/support/notify-rows.js';
import { dmCalls, scriptDmHistory, scriptRateLimit } from '../test/support/notify-slack.js';

export interface MixedOutcome {
  events: number;
  expected: number;
  delivered: number;
  /** DMs/s, first to last. */
  rate: number;
  achievable: number;
  /** Burst emitted → every DM queued (the listener's share), ms. */
  queuedMs: number;
  duplicates: number;
  losses: number;
  toActor: number;
  limited: number;
}

const TEAM = 'T_BENCH';
const slackId = (i: number) => `U${String(i + 1).padStart(5, '0')}`;
const serviceId = (i: number) => `svc${String(i).padStart(21, '0')}`;
const taskId = (i: number) => `task${String(i).padStart(20, '0')}`;

export async function runMixed(
  people: number,
  limit: number,
  latencyMs: number,
  timeoutMs: number,
): Promise<MixedOutcome> {
  const fake = await startFakeSlack({ teamId: TEAM });
  const tmp = tempStore('worklink-bench-activity-');
  const { store } = tmp;
  try {
    scriptDmHistory(fake);
    const limiter = scriptRateLimit(fake, { perSecond: limit, perChannel: true, latencyMs });
    const at = (i: number) => (i + people) % people;
    const email = (i: number) => `person${i}@example.com`;
    for (let i = 0; i < people; i++) {
      await store.userLinks.link({
        teamId: TEAM,
        serviceEmail: email(i),
        slackUserId: slackId(i),
        linkedBy: 'U_ADMIN',
      });
      await store.knownProjects.remember(TEAM, 'p1', 'Website');
      await store.taskIndex.record(TEAM, {
        taskId: taskId(i),
        projectId: 'p1',
        name: `Bench task ${i}`,
        done: false,
        assigneeIds: [serviceId(at(i + 1)), serviceId(at(i + 2))],
      });
      await store.taskCreators.note(TEAM, taskId(i), { slackUserId: slackId(i) });
    }
    // The service's users, as its list answers them (the only call the listener makes).
    const work = {
      listUsers: async () =>
        Array.from({ length: people }, (_, i) => ({
          id: serviceId(i),
          name: `Person ${i}`,
          email: email(i),
        })),
    } as unknown as WorkClient;
    const slackFor = slackClients(fake.apiUrl, 10_000);
    const hub = createActivityHub(console);
    hub.on(
      activityDms({
        store,
        logger: { debug: () => {} },
        slackFor,
        workFor: async () => work,
        directory: new ServiceDirectory(),
        matcher: new SlackMatcher(store),
      }),
    );
    const worker = testWorker(store, fake.apiUrl, {
      timeoutMs: 10_000,
      idlePollMs: 1_000,
      gate: dmGate({ store, users: new SlackUserDirectory(), now: Date.now }),
    });

    const events: TaskActivity[] = [];
    for (let i = 0; i < people; i++) {
      const actor = (p: number) => ({ slackUserId: slackId(p), serviceUserId: serviceId(p) });
      const assign: TaskActivity = {
        kind: 'assigned',
        taskId: taskId(i),
        actor: actor(i),
        added: [serviceId(at(i + 2))],
      };
      const comment: TaskActivity = {
        kind: 'commented',
        taskId: taskId(i),
        actor: actor(at(i + 1)),
        text: `Comment on task ${i}: looks good.`,
        commentId: `c${i}`,
      };
      events.push(assign, assign, comment, comment, {
        kind: 'completed',
        taskId: taskId(i),
        actor: actor(at(i + 1)),
      });
    }
    // A fixed shuffle, so runs compare.
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = events.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [events[i], events[j]] = [events[j]!, events[i]!];
    }

    worker.start();
    const started = Date.now();
    for (const e of events) hub.emit(TEAM, e);
    await hub.idle();
    const queuedMs = Date.now() - started;
    const expected = people * 4;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const c = await store.outbox.counts();
      if (c.sent + c.failed + c.skipped >= expected || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await worker.stop();

    const dms = dmCalls(fake);
    // One DM per recipient and event key; a second is a duplicate.
    const seen = new Map<string, number>();
    let toActor = 0;
    for (const c of dms) {
      const key = (c.body.metadata as { event_payload?: { task_id?: string } }).event_payload
        ?.task_id;
      const to = String(c.body.channel);
      seen.set(`${to} ${key}`, (seen.get(`${to} ${key}`) ?? 0) + 1);
      const i = Number(/task0*(\d+)/.exec(key ?? '')?.[1] ?? -1);
      const actorOf = key?.includes(':') ? slackId(at(i + 1)) : slackId(i);
      if (to === actorOf) toActor++;
    }
    const duplicates = [...seen.values()].reduce((n, k) => n + k - 1, 0);
    const spanS = ((dms.at(-1)?.at ?? 0) - (dms[0]?.at ?? 0)) / 1000;
    return {
      events: events.length,
      expected,
      delivered: dms.length,
      rate: spanS > 0 ? (dms.length - 1) / spanS : 0,
      achievable: Math.min(limit, people),
      queuedMs,
      duplicates,
      losses: expected - seen.size,
      toActor,
      limited: limiter.limited,
    };
  } finally {
    await fake.close();
    await tmp.remove();
  }
}
