/**
 * The modal an API key is pasted into: the workspace's (`/work connect`) and a person's own
 * (`/work connect me`, App Home). One shape: a sentence saying what the key is for, one
 * input, and a hint on how it is kept. Pure: data in, Block Kit out.
 */
import type { ModalView } from '@slack/types';

export interface ApiKeyModal {
  callbackId: string;
  /** Carried back in private_metadata (where the command was typed). */
  meta: object;
  title: string;
  /** mrkdwn: what acting through this key means. */
  intro: string;
  /** block_id of the input (`response_action: 'errors'` is keyed by it) and its action_id. */
  blockId: string;
  actionId: string;
  label: string;
  placeholder: string;
  /** Filled in (the sandbox's demo keys). */
  initialValue?: string;
  hint: string;
}

export function apiKeyModal(m: ApiKeyModal): ModalView {
  return {
    type: 'modal',
    callback_id: m.callbackId,
    private_metadata: JSON.stringify(m.meta),
    title: { type: 'plain_text', text: m.title },
    submit: { type: 'plain_text', text: 'Connect' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: m.intro } },
      {
        type: 'input',
        block_id: m.blockId,
        label: { type: 'plain_text', text: m.label },
        element: {
          type: 'plain_text_input',
          action_id: m.actionId,
          placeholder: { type: 'plain_text', text: m.placeholder },
          max_length: 500,
          ...(m.initialValue ? { initial_value: m.initialValue } : {}),
        },
        hint: { type: 'plain_text', text: m.hint },
      },
    ],
  };
}

/** How a pasted key is kept, said under the input. */
export const KEY_KEPT_HINT =
  'Worklink checks the key, stores it encrypted and never shows it again.';
