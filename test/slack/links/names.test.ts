/**
 * Numbers and names instead of ids, through signed slash commands and buttons, against the
 * embedded service and the hosted-style fake: `#N` right after `/work add`, `/work projects`,
 * and projects named by words in `project link`, `groups`, `list` (a pick list when several
 * match, an id still works).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION } from '../../../src/slack/ui/block-ids.js';
import type { AppHarness } from '../../support/harness.js';
import { startHarness } from '../../support/harness.js';
import { startHostedHarness } from '../../support/hosted-harness.js';

const shown = (x: unknown) => JSON.stringify(x);

interface Side {
  name: string;
  start(): Promise<AppHarness>;
  /** Adds a project in the service itself (not through Worklink); returns its id. */
  addProject(h: AppHarness, name: string): Promise<string>;
}

const sides: Side[] = [
  {
    name: 'embedded service',
    start: () => startHarness({ connect: true }),
    addProject: async (h, name) => (await h.work.createProject({ projectName: name }))!.projectId,
  },
  {
    name: 'hosted-style service',
    start: () => startHostedHarness({ connect: true }),
    addProject: async (h, name) =>
      (h as Awaited<ReturnType<typeof startHostedHarness>>).hosted.addProject(name),
  },
];

describe.each(sides)('against the $name', (side) => {
  let h: AppHarness;
  beforeAll(async () => {
    h = await side.start();
  });
  afterAll(() => h?.stop());

  async function run(command: string, channelId = 'C_GENERAL') {
    const res = await h.slack.slashCommand(command, { channelId });
    expect(res.status).toBe(200);
    return h.replyTo(res);
  }

  it('`/work projects` lists the service’s projects with channels and open tasks', async () => {
    const website = h.seed.projects[0]!.projectId;
    await h.worklink.store.channelProjects.link(h.teamId, 'C_WEB', website, h.users.alice.id);
    await side.addProject(h, 'Mobile app');
    const reply = await run('projects');
    const text = shown(reply.blocks);
    expect(text).toContain('*Website relaunch*');
    expect(text).toContain('*Customer onboarding*');
    // Never used from Slack: known only from the service's project list.
    expect(text).toContain('*Mobile app*');
    expect(text).toContain('<#C_WEB>');
    expect(text).toMatch(/Website relaunch\* · <#C_WEB> · \d+ open tasks?/);
  });

  it('`project link <name words>` links by words of the name, prefixes allowed', async () => {
    const mobile = await side.addProject(h, 'Mobile app two');
    await h.slack.slashCommand('project link mob two', { channelId: 'C_MOBILE' });
    const link = await h.waitFor(() => h.worklink.store.channelProjects.get(h.teamId, 'C_MOBILE'));
    expect(link.projectId).toBe(mobile);
  });

  it('`groups <name>` and `list <name>` take the name; an id still works', async () => {
    const groups = await run('groups Website relaunch');
    expect(groups.text).toContain('Groups of Website relaunch');
    const list = await run('list all Customer onboarding');
    expect(shown(list)).toContain('Customer onboarding');
    expect(shown(list)).toContain('Kick-off call with Globex');
    const byId = await run(`list all ${h.seed.projects[1]!.projectId}`);
    expect(shown(byId)).toContain('Kick-off call with Globex');
  });

  it('several matching projects → a pick list whose button finishes the command', async () => {
    await side.addProject(h, 'Docs site');
    const docs2 = await side.addProject(h, 'Docs portal');
    const pick = await run('project link docs', 'C_DOCS');
    expect(pick.text).toBe('2 projects match “docs”. Which one?');
    const value = (pick.blocks as { accessory?: { action_id: string; value: string } }[])
      .map((b) => b.accessory)
      .find((a) => a?.action_id === ACTION.projectPick && a.value.includes(docs2))?.value;
    expect(value).toBeDefined();
    expect(await h.worklink.store.channelProjects.get(h.teamId, 'C_DOCS')).toBeUndefined();
    await h.slack.blockAction({ actionId: ACTION.projectPick, value }, { channelId: 'C_DOCS' });
    const link = await h.waitFor(() => h.worklink.store.channelProjects.get(h.teamId, 'C_DOCS'));
    expect(link.projectId).toBe(docs2);
  });

  it('the task form’s project field is a type-ahead answered from the known projects', async () => {
    await run('projects'); // the service's list (or what is known) is remembered
    const suggest = async (value: string) => {
      const res = await h.slack.sendPayload({
        type: 'block_suggestion',
        action_id: ACTION.taskFormProject,
        block_id: 'task_project',
        value,
        api_app_id: 'A_TEST',
        team: { id: h.teamId, domain: 'test' },
        user: { id: h.users.alice.id, team_id: h.teamId },
        container: { type: 'view', view_id: 'V1' },
        view: { id: 'V1', type: 'modal', callback_id: 'task_create_modal', private_metadata: '{}' },
      });
      expect(res.status).toBe(200);
      return ((res.json?.options ?? []) as { text: { text: string } }[]).map((o) => o.text.text);
    };
    expect(await suggest('cust onb')).toEqual(['Customer onboarding']);
    expect(await suggest('docs')).toEqual(['Docs portal', 'Docs site']);
    expect((await suggest('')).length).toBeGreaterThanOrEqual(4);
  });

  it('`#N` works right after `/work add`, and the confirmation shows it', async () => {
    await h.worklink.store.channelProjects.link(
      h.teamId,
      'C_NUM',
      h.seed.projects[0]!.projectId,
      h.users.alice.id,
    );
    for (const title of ['Fix the login page', 'Fix the signup page']) {
      await h.slack.slashCommand(`add ${title}`, { channelId: 'C_NUM' });
      const added = await h.fake.waitForCall(
        'chat.postMessage',
        (c) => c.body.channel === 'C_NUM' && shown(c.body).includes(title),
      );
      const number = new RegExp(`#(\\d+) ${title}`).exec(shown(added.body.blocks))?.[1];
      expect(number, `confirmation of ${title} shows its number`).toBeDefined();
      // At once, twice within the minute: the index learnt the number from the create answer.
      const card = await run(`task #${number}`, 'C_NUM');
      expect(shown(card.blocks)).toContain(title);
    }
  });
});
