/**
 * Project and directory subcommands end to end: the project card, bad input, link/unlink and
 * its effect on `/work groups`, the card's buttons, the directory lists, and the answers
 * before connecting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION } from '../../../src/slack/ui/block-ids.js';
import { NOT_CONNECTED } from '../../../src/slack/ui/error-text.js';
import { type Harness, type ReplyBody, startHarness } from '../../support/harness.js';

let h: Harness;
let website: string;
let onboarding: string;
beforeAll(async () => {
  h = await startHarness({ connect: true });
  website = h.seed.projects[0].projectId;
  onboarding = h.seed.projects[1].projectId;
});
afterAll(() => h?.stop());

const UNKNOWN = '0123456789abcdef01234567';

/** `/work <text>` as Alice in `channelId`; the first reply. */
async function run(text: string, channelId = 'C_GENERAL', userId = h.users.alice.id) {
  const res = await h.slack.slashCommand(text, { channelId, userId });
  expect(res.status).toBe(200);
  return h.replyTo(res);
}

/** Runs a command that announces in the channel; returns the announcement's text. */
async function announced(text: string, channelId: string, userId = h.users.alice.id) {
  const before = h.fake.callsOf('chat.postMessage').length;
  const res = await h.slack.slashCommand(text, { channelId, userId });
  expect(res.status).toBe(200);
  const call = await h.waitFor(() =>
    h.fake
      .callsOf('chat.postMessage')
      .slice(before)
      .find((c) => c.body.channel === channelId),
  );
  return String(call.body.text);
}

const blocksText = (reply: ReplyBody) => JSON.stringify(reply.blocks ?? []);
const buttons = (reply: ReplyBody) =>
  (reply.blocks as { type: string; elements?: { action_id: string; value: string }[] }[])
    .filter((b) => b.type === 'actions')
    .flatMap((b) => b.elements ?? []);

describe('/work project <id>', () => {
  it('shows the card with names, calendar dates, statuses in order, groups, labels, features', async () => {
    const reply = await run(`project ${website}`, 'C_CARD');
    const shown = blocksText(reply);
    expect(reply.response_type).toBe('ephemeral');
    expect(reply.text).toContain('Website relaunch');
    expect(shown).toContain('New marketing site for Acme Corp.');
    expect(shown).toContain('*Start*\\nMon, Jan 5, 2026');
    expect(shown).toContain('*Due*\\nTue, Jun 30, 2026');
    expect(shown).toContain('*Customer*\\nAcme Corp');
    expect(shown).toContain('*Owner*\\nAlice Adams');
    // People: the owner, then assignees by name.
    expect(shown).toContain('*People:* Alice Adams, Bob Brown, Carol Chen, Dan Diaz, Erin Evans');
    expect(shown).toContain(
      '*Statuses:* To Do _(to do, default)_ → In Progress _(in progress)_ → Done _(done)_',
    );
    expect(shown).toContain('*Groups:* Design, Build, Launch');
    expect(shown).toContain('*Labels:* Bug, Content');
    expect(shown).toContain(
      '*Features:* Priority on (default: Medium) · Estimates on · Milestones on · Groups on',
    );
    expect(buttons(reply)).toEqual([
      expect.objectContaining({ action_id: ACTION.projectEdit, value: website }),
      expect.objectContaining({ action_id: ACTION.projectLink, value: website }),
    ]);
    // Looked up → known to this team (offered as template and in the task form).
    expect((await h.worklink.store.knownProjects.get(h.teamId, website))?.projectName).toBe(
      'Website relaunch',
    );
  });

  it('shows disabled features and a project without customer or dates', async () => {
    const created = await h.work.createProject({ projectName: 'Bare <R&D>' });
    await h.work.updateProject(created.projectId, {
      estimate: false,
      priority: false,
      description: 'Try <!channel> & <b>bold</b>',
    });
    const reply = await run(`project ${created.projectId}`);
    const shown = blocksText(reply);
    // Plain text in the header; service text is escaped in mrkdwn (no @channel pings).
    expect(shown).toContain('"text":"Bare <R&D>"');
    expect(shown).toContain('Try &lt;!channel&gt; &amp; &lt;b&gt;bold&lt;/b&gt;');
    expect(shown).toContain('*Start*\\nnot set');
    expect(shown).toContain('*Due*\\nno due date');
    expect(shown).toContain('*Customer*\\nnone');
    expect(shown).toContain('Priority off · Estimates off · Milestones on · Groups on');
    expect(shown).toContain('*Groups:* none yet');
  });

  it('answers bad, short, placeholder and unknown ids with one sentence each', async () => {
    expect((await run('project abc')).text).toBe(
      "No project called “abc” is known here. `/work projects` lists them; a project's id works too.",
    );
    expect((await run('project <projectId>')).text).toMatch(
      /^No project called “&lt;projectId&gt;” is known here/,
    );
    expect((await run('project 65a1f0c2e4b0a1b2c3d4e5f6!')).text).toMatch(
      /^No project called “65a1f0c2e4b0a1b2c3d4e5f6!” is known here/,
    );
    expect((await run(`project ${website} extra`)).text).toMatch(/^No project called/);
    expect((await run(`project ${UNKNOWN}`)).text).toBe(
      `Could not load the project: there is no project \`${UNKNOWN}\` in the connected workspace. Check the id (it is shown on project cards).`,
    );
    expect((await run('project edit')).text).toMatch(/^This channel has no default project/);
  });

  it('without an id shows the channel’s project, or says there is none', async () => {
    expect((await run('project', 'C_NOLINK')).text).toMatch(
      /^This channel has no default project, so name one: `\/work project <project>`/,
    );
    await h.worklink.store.channelProjects.link(
      h.teamId,
      'C_HASLINK',
      onboarding,
      h.users.alice.id,
    );
    const reply = await run('project', 'C_HASLINK');
    expect(reply.text).toContain('Customer onboarding');
    // Already this channel's project: no "Link" button, a note instead.
    expect(buttons(reply).map((b) => b.action_id)).toEqual([ACTION.projectEdit]);
    expect(blocksText(reply)).toContain('this channel’s default project');
  });
});

describe('link and unlink', () => {
  const channel = 'C_LINKS';

  it('links after checking the project exists, announces it, and /work groups follows the link', async () => {
    const store = h.worklink.store.channelProjects;
    expect((await run('groups', channel)).text).toBe(
      'This channel has no default project, so name one: `/work groups <project>`, or link one with `/work project link <project>`.',
    );

    const unknown = await run(`project link ${UNKNOWN}`, channel);
    expect(unknown.text).toMatch(/^Could not link the project: there is no project `0123/);
    expect(await store.get(h.teamId, channel)).toBeUndefined();

    // Announced in the channel, for everyone whose `/work add` it changes.
    expect(await announced(`project link ${onboarding}`, channel)).toBe(
      `<@${h.users.alice.id}> made *Customer onboarding* the default project of this channel: tasks created here go to it, and \`/work groups\` shows its groups.`,
    );
    expect(await store.get(h.teamId, channel)).toMatchObject({
      projectId: onboarding,
      linkedBy: h.users.alice.id,
    });
    expect(await h.worklink.store.knownProjects.get(h.teamId, onboarding)).toBeDefined();

    const groups = await run('groups', channel);
    expect(groups.text).toBe('Groups of Customer onboarding: Backlog, This week');
    expect(blocksText(groups)).toContain('(this channel’s project)');

    const again = await run(`project link ${onboarding}`, channel);
    expect(again.text).toBe(
      `*Customer onboarding* is already the default project of <#${channel}>.`,
    );

    // A member may not re-link it by default (the admin's links setting)…
    expect((await run(`project link ${website}`, channel, h.users.bob.id)).text).toMatch(
      /^Sorry, in this workspace only Slack admins and owners can link channels/,
    );
    expect((await store.get(h.teamId, channel))?.projectId).toBe(onboarding);
    // …and may once an admin lets everyone.
    await h.worklink.store.teamSettings.set(h.teamId, { links: 'everyone' }, h.users.alice.id);
    const relinked = await announced(`project link ${website}`, channel, h.users.bob.id);
    await h.worklink.store.teamSettings.set(h.teamId, { links: 'admins' }, h.users.alice.id);
    expect(relinked).toContain('(instead of *Customer onboarding*)');
    expect(await store.get(h.teamId, channel)).toMatchObject({
      projectId: website,
      linkedBy: 'U_BOB',
    });
    expect((await run('groups', channel)).text).toBe(
      'Groups of Website relaunch: Design, Build, Launch',
    );
    // An explicit id wins over the channel's project.
    expect((await run(`groups ${onboarding}`, channel)).text).toBe(
      'Groups of Customer onboarding: Backlog, This week',
    );

    expect(await announced('project unlink', channel)).toBe(
      `<@${h.users.alice.id}> removed this channel’s default project (it was *Website relaunch*); \`/work add\` here now needs a project named with \`in:\`.`,
    );
    expect(await store.get(h.teamId, channel)).toBeUndefined();
    expect((await run('groups', channel)).text).toMatch(/^This channel has no default project/);
    expect((await run('project unlink', channel)).text).toBe(
      'This channel has no default project, so there is nothing to unlink.',
    );
  });

  it('tells only the person who linked when Worklink cannot post in the channel', async () => {
    h.fake.script('chat.postMessage', (body) =>
      body.channel === 'C_QUIET' ? { ok: false, error: 'not_in_channel' } : undefined,
    );
    try {
      expect((await run(`project link ${website}`, 'C_QUIET')).text).toBe(
        `*Website relaunch* is now the default project of <#C_QUIET>: tasks created here go to it, and \`/work groups\` shows its groups.`,
      );
    } finally {
      h.fake.script('chat.postMessage', undefined);
    }
  });

  it('answers bad input to link, unlink and groups without changing anything', async () => {
    const store = h.worklink.store.channelProjects;
    expect((await run('project link', 'C_BAD')).text).toBe(
      'Name the project: `/work project link <project>` with words of its name (or its id). `/work projects` lists them.',
    );
    expect((await run('project link short', 'C_BAD')).text).toMatch(
      /^No project called “short” is known here/,
    );
    expect((await run(`project link ${website} ${onboarding}`, 'C_BAD')).text).toMatch(
      /^No project called/,
    );
    expect((await run('project unlink now', 'C_BAD')).text).toBe(
      '`/work project unlink` takes nothing after it: run just `/work project unlink`.',
    );
    expect((await run('groups tiny', 'C_BAD')).text).toMatch(/^No project called “tiny”/);
    expect((await run(`groups ${UNKNOWN}`, 'C_BAD')).text).toMatch(
      /^Could not list the groups: there is no project `0123456789abcdef01234567`/,
    );
    expect(await store.get(h.teamId, 'C_BAD')).toBeUndefined();
  });

  it('links from the card’s button in the channel the card is in', async () => {
    const res = await h.slack.blockAction(
      { actionId: ACTION.projectLink, value: website },
      { channelId: 'C_BUTTON' },
    );
    expect(res.status).toBe(200);
    const announcement = await h.fake.waitForCall(
      'chat.postMessage',
      (c) => c.body.channel === 'C_BUTTON',
    );
    expect(announcement.body.text).toContain(
      'made *Website relaunch* the default project of this channel',
    );
    expect((await h.worklink.store.channelProjects.get(h.teamId, 'C_BUTTON'))?.projectId).toBe(
      website,
    );
  });

  it('answers a button with a junk value in one sentence', async () => {
    const res = await h.slack.blockAction(
      { actionId: ACTION.projectOpen, value: 'x' },
      { channelId: 'C_BUTTON2' },
    );
    expect((await h.replyTo(res)).text).toMatch(/^This button names no usable project/);
  });

  it('opens a card from an Open button', async () => {
    const res = await h.slack.blockAction({ actionId: ACTION.projectOpen, value: onboarding });
    const reply = await h.replyTo(res);
    expect(reply.text).toContain('Project Customer onboarding');
    expect(blocksText(reply)).toContain('*Groups:* Backlog, This week');
  });
});

describe('directory lists', () => {
  it('lists customers with contact, address and clients', async () => {
    const reply = await run('customers');
    const shown = blocksText(reply);
    expect(shown).toContain('*Customers* — 2 companies');
    expect(shown).toContain(
      '*Acme Corp* — Wile Coyote · wile@acme.example · +1 555 0111\\n      1 Desert Road, Tucson AZ\\n      Clients: Road Runner (runner@acme.example), Marvin Martian (marvin@acme.example)',
    );
    expect(shown).toContain('*Globex* — Hank Scorpio');
    expect(shown).toContain('Clients: Frank Grimes (frank@globex.example)');
    expect(reply.text).toBe('Customers: Acme Corp, Globex');
  });

  it('lists users with e-mail, owner/admin marks and whom the key acts as', async () => {
    const reply = await run('users', 'C_GENERAL', h.users.bob.id);
    const shown = blocksText(reply);
    expect(shown).toContain('*Users* — 5 people');
    expect(shown).toContain(
      '• *Alice Adams* — alice@example.com · owner · admin · _Worklink acts as this user_',
    );
    expect(shown).toContain('• *Bob Brown* — bob@example.com\\n');
    expect(shown).toContain('• *Erin Evans* — erin@example.com');
    expect(reply.text).toContain('Carol Chen (carol@example.com)');
  });

  it('answers extra words with a usage sentence', async () => {
    expect((await run('users bob')).text).toBe(
      '`/work users` takes nothing after it: run just `/work users`.',
    );
  });

  it('lists help entries for every project and directory command', async () => {
    const reply = await run('help all');
    for (const usage of [
      'projects',
      'project <project>',
      'project new [name]',
      'project edit <project>',
      'project link <project>',
      'project unlink',
      'groups [project]',
      'customers',
      'users',
    ]) {
      expect(reply.text).toContain(`/work ${usage} — `);
    }
    expect(blocksText(reply)).toContain('e.g. `/work project link Website relaunch`');
  });
});

describe('before connecting', () => {
  beforeAll(async () => {
    await h.worklink.store.forgetTeam(h.teamId);
  });
  afterAll(() => h.connect());

  it('answers each command with the not-connected sentence and changes nothing', async () => {
    for (const text of [
      `project ${website}`,
      'project new',
      `project edit ${website}`,
      `project link ${website}`,
      'project unlink',
      'groups',
      'customers',
      'users',
    ]) {
      expect((await run(text, 'C_NOCONN')).text).toBe(NOT_CONNECTED);
    }
    expect(await h.worklink.store.channelProjects.get(h.teamId, 'C_NOCONN')).toBeUndefined();
    expect(h.fake.callsOf('views.open').filter((c) => c.body.trigger_id)).toHaveLength(0);
  });

  it('answers the card’s buttons with the not-connected sentence', async () => {
    const res = await h.slack.blockAction({ actionId: ACTION.projectEdit, value: website });
    expect((await h.replyTo(res)).text).toBe(NOT_CONNECTED);
  });
});
