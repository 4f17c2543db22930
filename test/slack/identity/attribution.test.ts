/**
 * Who did it, told truly — through signed Slack requests, against the embedded service and
 * the hosted-style fake: Bob (with his own key) creates a task and comments on it, and the
 * service shows Bob, not Alice (the workspace key's owner), as the task's, the comment's and
 * the change's author, with no "(via Slack)" text; Carol completes Bob's task and Bob — not
 * Alice — gets "a task you created" DM, naming Carol.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../support/fake-slack.js';
import {
  type AppHarness,
  type HarnessOptions,
  startHarness,
  waitFor,
} from '../../support/harness.js';
import type { HostedFake } from '../../support/hosted-fake.js';
import { type HostedHarness, startHostedHarness } from '../../support/hosted-harness.js';

type Backend = { name: string; start(o: HarnessOptions): Promise<AppHarness> };
const backends: Backend[] = [
  { name: 'embedded service', start: (o) => startHarness(o) },
  { name: 'hosted-style service', start: (o) => startHostedHarness(o) },
];

describe.each(backends)('attribution against the $name', ({ start }) => {
  let h: AppHarness;
  beforeAll(async () => {
    h = await start({ connect: true });
    const website = h.seed.projects[0]!.projectId;
    await h.worklink.store.channelProjects.link(h.teamId, 'C_GENERAL', website, h.users.alice.id);
  });
  afterAll(() => h?.stop());

  const svc = (email: string) => h.seed.users.find((u) => u.email === email)!;
  const run = async (command: string, userId: string) => {
    const res = await h.slack.slashCommand(command, { userId });
    expect(res.status).toBe(200);
    return (await h.replyTo(res)).text ?? '';
  };
  const settle = async () => {
    await h.worklink.parts.activity.idle();
    await waitFor(async () => {
      const c = await h.worklink.store.outbox.counts();
      return c.pending === 0 && c.sending === 0;
    });
  };
  const completionsTo = (user: string, taskId: string) =>
    (h.fake.callsOf('chat.postMessage') as RecordedCall[]).filter((c) => {
      const meta = c.body.metadata as { event_payload?: { task_id?: string } } | undefined;
      return (
        c.body.channel === user &&
        (meta?.event_payload?.task_id ?? '').startsWith(`completed:${taskId}:`)
      );
    });
  const taskNamed = (name: string) =>
    waitFor(async () =>
      (await h.worklink.store.taskIndex.search(h.teamId, name)).find((t) => t.name === name),
    );

  it('Carol completes Bob’s task: Bob, not Alice, is told, and Carol is named', async () => {
    await h.slack.slashCommand('add Bob orders new badges', { userId: h.users.bob.id });
    const task = await taskNamed('Bob orders new badges');
    await waitFor(
      async () => (await h.worklink.store.taskCreators.get(h.teamId, task.taskId))?.slackUserId,
    );
    await settle();
    expect(await run(`done ${task.taskId}`, h.users.carol.id)).toMatch(/^Marked .+ complete/);
    await settle();
    await waitFor(() => completionsTo(h.users.bob.id, task.taskId).length === 1);
    expect(String(completionsTo(h.users.bob.id, task.taskId)[0]!.body.text)).toMatch(
      /^<@U_CAROL> completed .*Bob orders new badges.*, a task you created\./,
    );
    expect(completionsTo(h.users.alice.id, task.taskId)).toHaveLength(0);
  });

  it('Bob with his own key: the service records Bob as the task’s and comment’s author, nothing appended', async () => {
    const bob = svc('bob@example.com');
    expect(await run(`connect me ${bob.apiKey}`, h.users.bob.id)).toMatch(
      /^Connected your own account/,
    );
    await h.slack.slashCommand('add Bob writes as Bob', { userId: h.users.bob.id });
    const task = await taskNamed('Bob writes as Bob');
    expect(await run(`comment ${task.taskId} Ordered them`, h.users.bob.id)).toMatch(/comment/i);
    expect(await creatorOf(h, task.taskId)).toBe(bob.id);
    await waitFor(async () => {
      const content = await commentsOf(h, task.taskId);
      return content.length > 0;
    });
    const [comment] = await commentsOf(h, task.taskId);
    expect(comment).toEqual({ content: 'Ordered them', createdBy: bob.id });
  });
});

/** The hosted fake behind a harness, when it is one. */
const hostedOf = (h: AppHarness): HostedFake | undefined =>
  'hosted' in h ? (h as HostedHarness).hosted : undefined;

/** Who the service says created a task. */
async function creatorOf(h: AppHarness, taskId: string) {
  const hosted = hostedOf(h);
  if (hosted) return hosted.tasks.get(taskId)?.createdBy;
  const read = await h.work.getTask(taskId);
  return (await h.work.updateTask(taskId, { projectId: read.projectId ?? '' })).CreatedBy;
}

/** The comments the service holds on a task: text and author. */
async function commentsOf(h: AppHarness, taskId: string) {
  const hosted = hostedOf(h);
  if (hosted) {
    return hosted.comments
      .filter((c) => c.taskId === taskId)
      .map(({ content, createdBy }) => ({ content, createdBy }));
  }
  const read = await h.work.getTask(taskId);
  const updated = await h.work.updateTask(taskId, { projectId: read.projectId ?? '' });
  return (updated.Comments ?? [])
    .filter((c) => c.Type === 1)
    .map((c) => ({ content: c.Comment, createdBy: c.CreatedBy }));
}
