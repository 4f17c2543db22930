/**
 * The connect modal (`/work connect` without a key) and its private_metadata.
 * Pure functions: data in, Block Kit out.
 */
import type { ModalView } from '@slack/types';
import { apiKeyModal, KEY_KEPT_HINT } from '../ui/api-key-modal.js';
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
  return apiKeyModal({
    callbackId: CONNECT_CALLBACK_ID,
    meta,
    title: 'Connect Worklink',
    intro:
      'Paste an API key of your work-management workspace. Everyone in this Slack workspace will act through it with `/work`.',
    blockId: API_KEY_BLOCK,
    actionId: API_KEY_ACTION,
    label: 'API key',
    placeholder: 'Paste the API key',
    hint: KEY_KEPT_HINT,
  });
}

/** private_metadata back to ConnectMeta; junk gives an empty object. */
export function readConnectMeta(privateMetadata: string | undefined): ConnectMeta {
  return readCarried(privateMetadata, ReplyPlace) ?? {};
}
