/**
 * The two plain modals every form shares: "Loading…" while a form's data loads (the trigger
 * expires in 3 s, the data may take longer), and a notice — a result or a refusal — with a
 * Close button. Slack cuts nothing itself: titles hold 24 characters, sections 3000.
 */
import type { ModalView } from '@slack/types';
import { cut } from '../format/text.js';
import { VIEW } from './block-ids.js';
import { section } from './blocks.js';

export function loadingModal(title: string): ModalView {
  return {
    type: 'modal',
    callback_id: VIEW.loading,
    title: { type: 'plain_text', text: cut(title, 24) },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [section(':hourglass_flowing_sand: Loading…')],
  };
}

export function noticeModal(title: string, text: string): ModalView {
  return {
    type: 'modal',
    title: { type: 'plain_text', text: cut(title, 24) },
    close: { type: 'plain_text', text: 'Close' },
    blocks: [section(text)],
  };
}
