// A person uses an interactive element: a button, menu or picker in a message or a view
// becomes a signed block_actions payload; typing into an external_select becomes a signed
// block_suggestion, whose options the page shows.

import { type AppLink, answered, type InteractionResult } from './app-link.js';
import { STATEFUL_TYPES } from './block-kit.js';
import { type Container, containerKey, locate } from './container.js';
import type { RawValue, RawValues } from './element-values.js';
import { nextTs } from './slack-ids.js';
import { messageObject } from './slack-objects.js';
import {
  minQueryLength,
  offeredIn,
  readSuggestionAnswer,
  SUGGESTION_TYPES,
  type SuggestResult,
} from './suggestions.js';
import { actionObject, buildState } from './view-state.js';

export interface BlockActionInput {
  userId: string;
  container: Container;
  blockId: string;
  actionId: string;
  value?: RawValue;
  /** The modal's current input values (for actions inside a view). */
  viewValues?: RawValues;
}

export async function blockAction(
  link: AppLink,
  input: BlockActionInput,
): Promise<InteractionResult> {
  const s = link.state;
  const { userId, container } = input;
  if (!link.human(userId)) return { ok: false, problem: `There is no user ${userId}.` };
  const found = locate(s, userId, container, input.blockId, input.actionId);
  if (!found.ok) return { ok: false, problem: found.problem };
  const ctx = link.contextFor(userId, container);
  const actionTs = nextTs();
  const action = actionObject(found.element, input.blockId, input.value, ctx, actionTs);
  const payload: Record<string, unknown> = {
    type: 'block_actions',
    user: link.userRef(userId),
    api_app_id: s.bot.appId,
    token: link.opts.verificationToken,
    team: link.team(),
    enterprise: null,
    is_enterprise_install: false,
  };
  let what: string;
  if (found.message) {
    const message = found.message;
    const channel = s.channels.get(message.channel);
    const values: Record<string, Record<string, unknown>> = {};
    if (STATEFUL_TYPES.has(found.element.type)) {
      const { action_id: _a, block_id: _b, action_ts: _t, ...rest } = action;
      values[input.blockId] = { [input.actionId]: rest };
    }
    const hook = s.newResponseHook(userId, message.channel, {
      channel: message.channel,
      ts: message.ts,
    });
    const ephemeral = message.ephemeralTo !== undefined;
    Object.assign(payload, {
      container: {
        type: 'message',
        message_ts: message.ts,
        channel_id: message.channel,
        is_ephemeral: ephemeral,
      },
      trigger_id: s.issueTrigger(userId),
      channel: channel ? { id: channel.id, name: s.channelName(channel) } : undefined,
      // Slack leaves the message out for ephemeral messages; apps answer via response_url.
      ...(ephemeral ? {} : { message: messageObject(s, message) }),
      state: { values },
      response_url: s.responseUrl(hook),
      actions: [action],
    });
    what = `Action ${input.actionId}`;
  } else {
    const view = found.view;
    const raw: RawValues = { ...(input.viewValues ?? {}) };
    if (input.value !== undefined && STATEFUL_TYPES.has(found.element.type)) {
      raw[input.blockId] = { ...(raw[input.blockId] ?? {}), [input.actionId]: input.value };
    }
    view.state.values = buildState(view.blocks, raw, ctx, false).values;
    Object.assign(payload, {
      container: { type: 'view', view_id: view.id },
      trigger_id: s.issueTrigger(userId),
      view,
      state: view.state,
      actions: [action],
    });
    what = `Action ${input.actionId} in view ${view.callback_id || view.id}`;
  }
  const d = await link.deliver('interactivity', payload, what);
  if (!answered(d)) {
    return { ok: false, status: d.status, problem: 'The app did not respond to that action.' };
  }
  return { ok: true, status: d.status };
}

export interface SuggestInput {
  userId: string;
  container: Container;
  blockId: string;
  actionId: string;
  value: string;
}

/**
 * What the user typed into an external_select, sent to the app as a signed block_suggestion
 * (the options load URL is the app's request URL here); its options, remembered for the
 * container, go back to the page. Fewer characters than `min_query_length` ask nothing.
 */
export async function suggest(link: AppLink, input: SuggestInput): Promise<SuggestResult> {
  const s = link.state;
  const { userId, container } = input;
  if (!link.human(userId)) return { ok: false, problem: `There is no user ${userId}.` };
  const found = locate(s, userId, container, input.blockId, input.actionId);
  if (!found.ok) return { ok: false, problem: found.problem };
  if (!SUGGESTION_TYPES.has(found.element.type)) {
    return { ok: false, problem: 'That element does not load options from the app.' };
  }
  if (input.value.length < minQueryLength(found.element)) return { ok: true, options: [] };
  const where = found.view
    ? { container: { type: 'view', view_id: found.view.id }, view: found.view }
    : {
        container: {
          type: 'message',
          message_ts: found.message.ts,
          channel_id: found.message.channel,
          is_ephemeral: found.message.ephemeralTo !== undefined,
        },
        channel: { id: found.message.channel, name: link.channelNameOf(found.message.channel) },
      };
  const what = `Options for ${input.actionId}`;
  const d = await link.deliver(
    'interactivity',
    {
      type: 'block_suggestion',
      user: link.userRef(userId),
      team: link.team(),
      api_app_id: s.bot.appId,
      token: link.opts.verificationToken,
      action_id: input.actionId,
      block_id: input.blockId,
      value: input.value,
      enterprise: null,
      is_enterprise_install: false,
      ...where,
    },
    what,
  );
  const result = readSuggestionAnswer(d, (text) => s.note('warn', `${what}: ${text}`));
  if (result.ok) {
    const options = offeredIn(result);
    link.offered.remember(containerKey(container), input.blockId, input.actionId, options);
  }
  return result;
}
