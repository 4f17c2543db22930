// A person submits or closes a modal: the signed view_submission (after Slack's own checks of
// the inputs) and what Slack does with the app's `response_action` (close, clear, errors under
// fields, update or push); view_closed for a view that asked to be told.

import { type AppLink, answered, type InteractionResult, TROUBLE } from './app-link.js';
import { shown } from './block-kit.js';
import { validateView } from './block-validation.js';
import type { RawValues } from './element-values.js';
import { isObj, parseJsonObject } from './json-guards.js';
import type { SlackView } from './records.js';
import { MAX_VIEW_STACK } from './state.js';
import { buildState } from './view-state.js';

export async function submitView(
  link: AppLink,
  input: { userId: string; viewId: string; values: RawValues },
): Promise<InteractionResult> {
  const s = link.state;
  const { userId } = input;
  const top = s.topModal(userId);
  if (!top || top.view.id !== input.viewId) {
    return { ok: false, problem: 'That modal is no longer open.' };
  }
  const view = top.view;
  const ctx = link.contextFor(userId, { type: 'view', viewId: view.id });
  const { values, errors } = buildState(view.blocks, input.values, ctx, true);
  view.state.values = values;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const payload = {
    type: 'view_submission',
    team: link.team(),
    user: link.userRef(userId),
    api_app_id: s.bot.appId,
    token: link.opts.verificationToken,
    trigger_id: s.issueTrigger(userId),
    view,
    response_urls: [],
    is_enterprise_install: false,
    enterprise: null,
  };
  const where = `Submitting ${view.callback_id || view.id}`;
  const d = await link.deliver('interactivity', payload, where);
  if (!answered(d)) return { ok: false, status: d.status, problem: TROUBLE };
  const text = d.body.trim();
  const answer = text.length === 0 ? {} : parseJsonObject(text);
  if (!answer) {
    s.note('warn', `${where}: the app answered with something other than JSON.`);
    return { ok: false, status: d.status, problem: TROUBLE };
  }
  return applyResponseAction(link, userId, view, answer, where, d.status);
}

function applyResponseAction(
  link: AppLink,
  userId: string,
  view: SlackView,
  answer: Record<string, unknown>,
  where: string,
  status: number,
): InteractionResult {
  const s = link.state;
  const action = answer.response_action;
  const bad = (why: string): InteractionResult => {
    s.note('warn', `${where}: ${why}`);
    return { ok: false, status, problem: TROUBLE };
  };
  switch (action) {
    case undefined:
      s.closeModals(userId, false);
      return { ok: true, status };
    case 'clear':
      s.closeModals(userId, true);
      return { ok: true, status };
    case 'errors': {
      const errors = answer.errors;
      if (!isObj(errors)) return bad('response_action "errors" without an errors object.');
      const inputIds = new Set(
        view.blocks.filter((b) => b.type === 'input').map((b) => b.block_id),
      );
      const out: Record<string, string> = {};
      for (const [blockId, message] of Object.entries(errors)) {
        if (!inputIds.has(blockId)) {
          return bad(
            `response_action "errors" names block_id "${blockId}", which is not an input block of the view.`,
          );
        }
        out[blockId] = shown(message);
      }
      return { ok: false, status, errors: out };
    }
    case 'update':
    case 'push': {
      const spec = answer.view;
      const problems = validateView(spec, 'modal');
      if (problems.length > 0 || !isObj(spec)) {
        return bad(`invalid view in response_action "${action}": ${problems.join('; ')}`);
      }
      if (action === 'update') {
        s.replaceView(view.id, spec);
      } else {
        if (s.stackOf(userId).length >= MAX_VIEW_STACK) {
          return bad('push_limit_reached: at most 3 views in a stack.');
        }
        s.pushModal(userId, spec);
      }
      return { ok: true, status };
    }
    default:
      return bad(`unknown response_action "${shown(action)}".`);
  }
}

export async function closeView(
  link: AppLink,
  input: { userId: string; viewId: string },
): Promise<InteractionResult> {
  const s = link.state;
  const top = s.topModal(input.userId);
  if (!top || top.view.id !== input.viewId) {
    return { ok: false, problem: 'That modal is no longer open.' };
  }
  const view = top.view;
  s.closeModals(input.userId, view.clear_on_close);
  if (!view.notify_on_close) return { ok: true };
  const d = await link.deliver(
    'interactivity',
    {
      type: 'view_closed',
      team: link.team(),
      user: link.userRef(input.userId),
      api_app_id: s.bot.appId,
      token: link.opts.verificationToken,
      view,
      is_cleared: view.clear_on_close,
      is_enterprise_install: false,
      enterprise: null,
    },
    `Closing ${view.callback_id || view.id}`,
  );
  return { ok: answered(d), status: d.status };
}
