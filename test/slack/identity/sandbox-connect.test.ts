/**
 * The demo (`npm start`): in the sandbox, Bob connects his own key from App Home in one
 * click — the sandbox knows the demo people's keys and fills his in — and what he does is
 * then done as Bob in the embedded service.
 */
import { describe, expect, it } from 'vitest';
import type { SlackView } from '../../../src/sandbox/records.js';
import {
  HOME_CONNECT_ME,
  OWN_KEY_CALLBACK_ID,
} from '../../../src/slack/identity/connect-me-modal.js';
import { waitFor } from '../../sandbox/helpers.js';
import { useSandboxStack } from '../../support/sandbox-stack.js';

const BOB = 'U0SBBOB';
const stack = useSandboxStack('worklink-identity-');
const state = () => stack().sandbox.state;

async function openHome(userId: string): Promise<SlackView> {
  const before = state().homeViews.get(userId);
  const hash = before ? state().views.get(before)?.view.hash : undefined;
  expect((await stack().sandbox.interactions.openHome({ userId, tab: 'home' })).ok).toBe(true);
  return waitFor(() => {
    const id = state().homeViews.get(userId);
    const view = id ? state().views.get(id)?.view : undefined;
    return view && view.hash !== hash ? view : undefined;
  }, `the Home tab of ${userId}`);
}

describe('Connect your account in the sandbox', () => {
  it('fills in Bob’s demo key, connects it, and Home says he acts as himself', async () => {
    const home = await openHome(BOB);
    const block = home.blocks.find((b) => JSON.stringify(b).includes(HOME_CONNECT_ME));
    expect(block).toBeDefined();
    const pressed = await stack().sandbox.interactions.blockAction({
      userId: BOB,
      container: { type: 'view', viewId: home.id },
      blockId: String(block?.block_id),
      actionId: HOME_CONNECT_ME,
    });
    expect(pressed.ok).toBe(true);
    const modal = await waitFor(() => {
      const top = state().topModal(BOB)?.view;
      return top?.callback_id === OWN_KEY_CALLBACK_ID ? top : undefined;
    }, 'the Connect your account modal');
    const bobKey = stack().setup.seed?.users.find((u) => u.email === 'bob@example.com')?.apiKey;
    expect(bobKey).toBeTruthy();
    expect(JSON.stringify(modal.blocks)).toContain(bobKey);

    const submitted = await stack().sandbox.interactions.submitView({
      userId: BOB,
      viewId: modal.id,
      values: {},
    });
    expect(submitted.ok).toBe(true);
    const own = await waitFor(
      () => stack().worklink.store.personalKeys.info(stack().teamId, BOB),
      'Bob’s own key stored',
    );
    expect(own.serviceUserId).toBe(
      stack().setup.seed?.users.find((u) => u.email === 'bob@example.com')?.id,
    );
    const again = await openHome(BOB);
    expect(JSON.stringify(again.blocks)).toContain('You act as yourself');
  });
});
