/**
 * The App Home tab, personal: quick buttons, the reader's own open tasks (My tasks), the
 * channels linked to projects, the projects this team knows, and the commands — the /work
 * router's visible subcommands, given by the caller, so the list is always what the app
 * really answers. Who connected and the admin commands are shown to admins only.
 * A pure function of its input.
 */
import type { Button, HomeView, KnownBlock } from '@slack/types';
import { cut, esc } from '../format/text.js';
import {
  HOME_CONNECT_ME,
  HOME_DISCONNECT_ME,
  settingsHomeBlocks,
} from '../identity/connect-me-modal.js';
import { ACTION } from '../ui/block-ids.js';
import { context, packed, section } from '../ui/blocks.js';

export interface HomeInput {
  connection?: {
    workspaceName: string;
    connectedBy: string;
    /** Already formatted in the reader's time zone. */
    connectedAt: string;
  };
  /** A connection row exists but its key cannot be decrypted. */
  keyUnreadable?: boolean;
  /** The links of channels the reader is in. */
  links: readonly { channelId: string; projectId: string; projectName: string }[];
  /** Slack could not say which channels the reader is in, so no link is listed. */
  linksUnreadable?: boolean;
  projects: readonly { projectId: string; projectName: string }[];
  commands: readonly { usage: string; summary: string; group?: string; adminOnly?: boolean }[];
  /** The reader is a Slack admin or owner (sees the connection's details, admin commands). */
  admin: boolean;
  /** The reader's My tasks blocks (tasks/mine/my-tasks-view.ts), when connected. */
  myTasks?: readonly KnownBlock[];
  /** How the reader acts in the service (identity/me.ts) and whether they have their own key. */
  you?: { text: string; ownKey: boolean };
  /** The team's policies (identity/settings.ts): shown, changeable, to admins only. */
  settings?: { members: string; links: string };
  /** The reader's notification settings: each kind (on or off) and quiet hours. */
  notify?: { kinds: readonly { kind: string; label: string; on: boolean }[]; quiet?: string };
}

/** Slack allows 100 blocks in a Home tab; projects with an Open button take one each. */
const MAX_PROJECT_ROWS = 15;

export function homeView(input: HomeInput): HomeView {
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: 'Worklink' } },
    section(connectionText(input)),
  ];
  const connected = Boolean(input.connection) && !input.keyUnreadable;
  if (connected) {
    const buttons: Button[] = [
      button('New task', ACTION.homeNewTask, 'primary'),
      button('New project', ACTION.homeNewProject),
    ];
    blocks.push({ type: 'actions', block_id: 'home_buttons', elements: buttons });
    if (input.myTasks) blocks.push({ type: 'divider' }, ...input.myTasks);
    if (input.you) blocks.push({ type: 'divider' }, ...youBlocks(input.you));
    if (input.admin && input.settings) {
      blocks.push({ type: 'divider' }, ...settingsHomeBlocks(input.settings));
    }
  }

  if (input.notify) blocks.push({ type: 'divider' }, ...notifyBlocks(input.notify));

  blocks.push({ type: 'divider' }, section('*Channels linked to projects*'));
  if (input.linksUnreadable) {
    blocks.push(
      context(
        'Worklink could not read which channels you are in, so it lists none now. `/work status` in a channel shows its project.',
      ),
    );
  } else if (input.links.length) {
    const lines = input.links.map(
      (l) => `<#${l.channelId}> → *${esc(l.projectName)}*  \`${esc(l.projectId)}\``,
    );
    blocks.push(...packed('', lines));
  } else {
    blocks.push(
      context(
        'No channel you are in has a default project yet. In a channel, run `/work project link <projectId>`.',
      ),
    );
  }

  blocks.push({ type: 'divider' }, section('*Projects*'));
  if (input.projects.length) {
    for (const p of input.projects.slice(0, MAX_PROJECT_ROWS)) {
      blocks.push({
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: cut(`*${esc(p.projectName)}*  \`${esc(p.projectId)}\``, 3000),
        },
        accessory: { ...button('Open', ACTION.projectOpen), value: p.projectId },
      });
    }
    const more = input.projects.length - MAX_PROJECT_ROWS;
    if (more > 0)
      blocks.push(context(`…and ${more} more. \`/work project <projectId>\` opens any.`));
  } else {
    blocks.push(
      context(
        'Projects you create, open or link with `/work project …` are listed here (the service has no project list).',
      ),
    );
  }

  blocks.push({ type: 'divider' }, section('*Commands*'));
  const groups = new Map<string, string[]>();
  for (const c of input.commands.filter((x) => input.admin || !x.adminOnly)) {
    const group = c.group ?? 'Other';
    groups.set(group, [...(groups.get(group) ?? []), `\`/work ${c.usage}\` — ${c.summary}`]);
  }
  for (const [group, lines] of groups) blocks.push(...packed(`_${group}_`, lines));
  blocks.push(context('`/work help` in any channel shows an example for each command.'));
  return { type: 'home', blocks: blocks.slice(0, 100) };
}

/** "Your account": how the reader acts, and the button to connect (or forget) their own key. */
function youBlocks(you: NonNullable<HomeInput['you']>): KnownBlock[] {
  return [
    section('*Your account*'),
    {
      type: 'section',
      block_id: 'home_you',
      text: { type: 'mrkdwn', text: cut(you.text, 3000) },
      accessory: you.ownKey
        ? button('Disconnect your account', HOME_DISCONNECT_ME)
        : button('Connect your account', HOME_CONNECT_ME, 'primary'),
    },
  ];
}

/** The same settings as `/work notify`, as checkboxes (saved as they are ticked). */
function notifyBlocks(notify: NonNullable<HomeInput['notify']>): KnownBlock[] {
  const options = notify.kinds.map((k) => ({
    text: { type: 'plain_text' as const, text: k.label },
    value: k.kind,
  }));
  const on = options.filter((o) => notify.kinds.find((k) => k.kind === o.value)?.on);
  return [
    section('*Your notifications*'),
    {
      type: 'actions',
      block_id: 'home_notify',
      elements: [
        {
          type: 'checkboxes',
          action_id: ACTION.homeNotify,
          options,
          // Slack refuses an empty initial_options.
          ...(on.length ? { initial_options: on } : {}),
        },
      ],
    },
    context(
      notify.quiet
        ? `Quiet hours: *${esc(notify.quiet)}* your time (DMs wait until they end). \`/work notify quiet off\` turns them off.`
        : 'Quiet hours: off. `/work notify quiet 20:00-08:00` holds DMs until the morning, your time.',
    ),
  ];
}

function connectionText(input: HomeInput): string {
  if (input.keyUnreadable) {
    return ':warning: Worklink cannot read its stored API key (the server’s SECRETS_KEY changed). An admin can run `/work connect` again.';
  }
  const c = input.connection;
  if (!c) {
    return input.admin
      ? 'Worklink is *not connected* to a work-management workspace yet. As a Slack admin you can run `/work connect` (or `/work connect <apiKey>`) in any channel.'
      : 'Worklink is *not connected* to a work-management workspace yet. A Slack admin can run `/work connect` (or `/work connect <apiKey>`) in any channel.';
  }
  if (!input.admin) return `:white_check_mark: Connected to *${esc(c.workspaceName)}*.`;
  return `:white_check_mark: Connected to *${esc(c.workspaceName)}* by <@${c.connectedBy}> on ${esc(c.connectedAt)}.`;
}

function button(text: string, actionId: string, style?: 'primary'): Button {
  return {
    type: 'button',
    action_id: actionId,
    text: { type: 'plain_text', text },
    ...(style ? { style } : {}),
  };
}
