// The sandbox's records as Slack shows them to apps: user, channel, message, view and file
// objects with the fields the Web API and payloads carry (users.info, conversations.info,
// chat.postMessage's `message`, views.open's `view`, files.info's `file`).

import { isTextObj, normalizeBlocks } from './block-kit.js';
import type {
  SandboxChannel,
  SandboxMessage,
  SandboxUser,
  SlackView,
  WorkspaceIdentity,
} from './records.js';
import { slackId } from './slack-ids.js';
import { tzInfo } from './workspace.js';

export function userObject(ws: WorkspaceIdentity, u: SandboxUser): Record<string, unknown> {
  const [first, ...rest] = u.realName.split(' ');
  const image = (size: number) =>
    `https://ui-avatars.com/api/?name=${encodeURIComponent(u.realName)}&size=${size}`;
  return {
    id: u.id,
    team_id: u.teamId ?? ws.team.id,
    name: u.name,
    deleted: false,
    color: u.color,
    real_name: u.realName,
    ...tzInfo(u.tz),
    profile: {
      title: u.title ?? '',
      phone: '',
      skype: '',
      real_name: u.realName,
      real_name_normalized: u.realName,
      display_name: u.isBot ? '' : u.name,
      display_name_normalized: u.isBot ? '' : u.name,
      status_text: '',
      status_emoji: '',
      first_name: first,
      last_name: rest.join(' '),
      ...(u.isBot ? { bot_id: ws.bot.botId, api_app_id: ws.bot.appId } : { email: u.email }),
      image_24: image(24),
      image_32: image(32),
      image_48: image(48),
      image_72: image(72),
      image_192: image(192),
      team: ws.team.id,
    },
    is_admin: u.isAdmin === true,
    is_owner: u.isOwner === true,
    is_primary_owner: u.isOwner === true,
    is_restricted: u.isRestricted === true || u.isUltraRestricted === true,
    is_ultra_restricted: u.isUltraRestricted === true,
    is_bot: u.isBot,
    is_app_user: false,
    updated: Math.floor(Date.now() / 1000) - 86_400,
    is_email_confirmed: !u.isBot,
    who_can_share_contact_card: 'EVERYONE',
  };
}

export function channelObject(ws: WorkspaceIdentity, c: SandboxChannel): Record<string, unknown> {
  if (c.kind === 'im') {
    return {
      id: c.id,
      created: c.created,
      is_archived: false,
      is_im: true,
      is_org_shared: false,
      context_team_id: ws.team.id,
      updated: c.created * 1000,
      user: c.imUser,
      is_user_deleted: false,
      priority: 0,
    };
  }
  return {
    id: c.id,
    name: c.name,
    is_channel: true,
    is_group: false,
    is_im: false,
    is_mpim: false,
    is_private: false,
    created: c.created,
    is_archived: false,
    is_general: c.name === 'general',
    name_normalized: c.name,
    is_shared: false,
    is_org_shared: false,
    is_member: c.members.has(ws.bot.botUserId),
    topic: { value: c.topic ?? '', creator: '', last_set: 0 },
    purpose: { value: '', creator: '', last_set: 0 },
    num_members: c.members.size,
  };
}

export function messageObject(ws: WorkspaceIdentity, m: SandboxMessage): Record<string, unknown> {
  const fromBot = m.botId !== undefined;
  return {
    type: 'message',
    ...(fromBot ? { bot_id: m.botId, app_id: ws.bot.appId } : {}),
    user: m.user,
    text: m.text,
    ts: m.ts,
    team: ws.team.id,
    ...(m.blocks ? { blocks: m.blocks } : {}),
    ...(m.attachments ? { attachments: m.attachments } : {}),
    ...(m.threadTs ? { thread_ts: m.threadTs } : {}),
    ...(m.edited ? { edited: m.edited } : {}),
    ...(m.metadata ? { metadata: m.metadata } : {}),
    ...(m.reactions?.length
      ? {
          reactions: m.reactions.map((r) => ({ ...r, users: [...r.users], count: r.users.length })),
        }
      : {}),
    ...(fromBot
      ? {
          bot_profile: {
            id: m.botId,
            app_id: ws.bot.appId,
            name: ws.appName,
            deleted: false,
            team_id: ws.team.id,
          },
        }
      : {}),
  };
}

/** Where a view sits: its root and the view under it in the stack, and the values kept. */
export interface ViewPlace {
  root: string;
  previous: string | null;
  values: SlackView['state']['values'];
}

/** A view object from the app's spec (already validated), as views.open/update return it. */
export function viewObject(
  ws: WorkspaceIdentity,
  id: string,
  spec: Record<string, unknown>,
  place: ViewPlace,
): SlackView {
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  return {
    id,
    team_id: ws.team.id,
    type: spec.type === 'home' ? 'home' : 'modal',
    // Checked as text objects before a view is taken (validateView); a Home tab has none.
    title: isTextObj(spec.title) ? spec.title : undefined,
    submit: isTextObj(spec.submit) ? spec.submit : null,
    close: isTextObj(spec.close) ? spec.close : null,
    blocks: normalizeBlocks(Array.isArray(spec.blocks) ? spec.blocks : []),
    private_metadata: str(spec.private_metadata),
    callback_id: str(spec.callback_id),
    external_id: str(spec.external_id),
    state: { values: place.values },
    hash: `${Math.floor(Date.now() / 1000)}.${slackId('', 8).toLowerCase()}`,
    clear_on_close: spec.clear_on_close === true,
    notify_on_close: spec.notify_on_close === true,
    root_view_id: place.root,
    previous_view_id: place.previous,
    app_id: ws.bot.appId,
    app_installed_team_id: ws.team.id,
    bot_id: ws.bot.botId,
  };
}

/** A file the user attached by URL (a file_input in the sandbox takes an http(s) URL). */
export function externalFile(ws: WorkspaceIdentity, url: string, userId: string) {
  const id = slackId('F');
  const now = Math.floor(Date.now() / 1000);
  let name = 'file';
  try {
    name = decodeURIComponent(new URL(url).pathname.split('/').pop() || 'file');
  } catch {
    // keep the generic name
  }
  const ext = name.includes('.') ? (name.split('.').pop() ?? '').toLowerCase() : '';
  return {
    id,
    created: now,
    timestamp: now,
    name,
    title: name,
    mimetype: 'application/octet-stream',
    filetype: ext || 'binary',
    pretty_type: ext ? ext.toUpperCase() : 'Binary',
    user: userId,
    user_team: ws.team.id,
    editable: false,
    size: 0,
    mode: 'external',
    is_external: true,
    external_type: 'app',
    is_public: false,
    public_url_shared: false,
    display_as_bot: false,
    username: '',
    url_private: url,
    url_private_download: url,
    permalink: url,
    permalink_public: url,
  };
}
