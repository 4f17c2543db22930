/**
 * The connect modal (`/work connect` without a key) and its private_metadata.
 * Pure functions: data in, Block Kit out.
 */
import type { ModalView } from '@slack/types';
import { ReplyPlace, readCarried } from '../ui/metadata.js';

export const CONNECT_CALLBACK_ID = 'connect_workspace';
/** block_id of the key input: `response_action: 'errors'` is keyed by it. */
export const API_KEY_BLOCK = 'api_key';
export const API_KEY_ACTION = 'api_key_input';

/** Carried in private_metadata so the result can be reported where the command was typed. */
export interface ConnectMeta {
  channelId?: string;
  responseUrl?: string;
}

export function connectModal(meta: ConnectMeta): ModalView {
  return {
    type: 'modal',
    callback_id: CONNECT_CALLBACK_ID,
    private_metadata: JSON.stringify(meta),
    title: { type: 'plain_text', text: 'Connect Worklink' },
    submit: { type: 'plain_text', text: 'Connect' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: 'Paste an API key of your work-management workspace. Everyone in this Slack workspace will act through it with `/work`.',
        },
      },
      {
        type: 'input',
        block_id: API_KEY_BLOCK,
        label: { type: 'plain_text', text: 'API key' },
        element: {
          type: 'plain_text_input',
          action_id: API_KEY_ACTION,
          placeholder: { type: 'plain_text', text: 'Paste the API key' },
          max_length: 500,
        },
        hint: {
          type: 'plain_text',
          text: 'Worklink checks the key, stores it encrypted and never shows it again.',
        },
      },
    ],
  };
}

/** private_metadata back to ConnectMeta; junk gives an empty object. */
export function readConnectMeta(privateMetadata: string | undefined): ConnectMeta {
  return readCarried(privateMetadata, ReplyPlace) ?? {};
}
