/**
 * "Connect your account": the modal a person pastes their own API key into (App Home's
 * button, `/work connect me` without a key). Pure functions: data in, Block Kit out. The
 * sandbox offers its demo people's keys in one click (`demoKey`).
 */
import type { KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { esc } from '../format/text.js';
import { apiKeyModal, KEY_KEPT_HINT } from '../ui/api-key-modal.js';
import { ReplyPlace, readCarried } from '../ui/metadata.js';

export const OWN_KEY_CALLBACK_ID = 'connect_own_key';
export const OWN_KEY_BLOCK = 'own_api_key';
export const OWN_KEY_ACTION = 'own_api_key_input';
/** App Home's buttons (no value). */
export const HOME_CONNECT_ME = 'home_connect_me';
export const HOME_DISCONNECT_ME = 'home_disconnect_me';
/** The admin's Home settings selects; option value = the policy's value. */
export const HOME_SETTING_MEMBERS = 'home_setting_members';
export const HOME_SETTING_LINKS = 'home_setting_links';

export interface OwnKeyMeta {
  channelId?: string;
  responseUrl?: string;
}

export function ownKeyModal(meta: OwnKeyMeta, workspaceName: string, demoKey?: string): ModalView {
  return apiKeyModal({
    callbackId: OWN_KEY_CALLBACK_ID,
    meta,
    title: 'Connect your account',
    intro: `Paste an API key of *your own* account in *${esc(workspaceName)}*. What you change with Worklink is then done as you there, not through the workspace’s connection.`,
    blockId: OWN_KEY_BLOCK,
    actionId: OWN_KEY_ACTION,
    label: 'Your API key',
    placeholder: 'Paste your API key',
    // The sandbox knows its demo people's keys: one click, as the issue asks.
    initialValue: demoKey,
    hint: demoKey
      ? 'Sandbox: your demo account’s key is filled in. Worklink checks it and stores it encrypted.'
      : KEY_KEPT_HINT,
  });
}

export function readOwnKeyMeta(privateMetadata: string | undefined): OwnKeyMeta {
  return readCarried(privateMetadata, ReplyPlace) ?? {};
}

const option = (value: string, text: string): PlainTextOption => ({
  text: { type: 'plain_text', text },
  value,
});

/** The admin's "Workspace settings" on the Home tab: one select per policy. */
export function settingsHomeBlocks(settings: { members: string; links: string }): KnownBlock[] {
  const members = [
    option('attributed', 'Change things, named as themselves'),
    option('read-only', 'Only look (need their own key)'),
  ];
  const links = [option('admins', 'Admins only'), option('everyone', 'Everyone (not guests)')];
  const select = (actionId: string, options: PlainTextOption[], value: string) => ({
    type: 'static_select' as const,
    action_id: actionId,
    options,
    initial_option: options.find((o) => o.value === value) ?? options[0],
  });
  return [
    { type: 'section', text: { type: 'mrkdwn', text: '*Workspace settings* (admins)' } },
    {
      type: 'section',
      block_id: 'home_setting_members',
      text: { type: 'mrkdwn', text: 'Members without their own API key may…' },
      accessory: select(HOME_SETTING_MEMBERS, members, settings.members),
    },
    {
      type: 'section',
      block_id: 'home_setting_links',
      text: { type: 'mrkdwn', text: 'Who links channels to projects and turns feeds on or off' },
      accessory: select(HOME_SETTING_LINKS, links, settings.links),
    },
  ];
}
