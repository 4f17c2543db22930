// The `state.values` Slack builds from what a user entered in a view (each element's entry:
// element-values.ts), the required fields Slack's own client checks before sending anything,
// and the `actions[0]` object of a block_actions payload.

import type { BlockObj, ElementObj } from './block-kit.js';
import { statefulElements } from './block-kit.js';
import {
  asList,
  elementState,
  initialRaw,
  type RawValue,
  type RawValues,
  type StateContext,
} from './element-values.js';

export const REQUIRED_MESSAGE = 'Please complete this required field.';

export interface StateResult {
  values: Record<string, Record<string, Record<string, unknown>>>;
  /** Per block_id, the problem Slack's client would show before sending anything to the app. */
  errors: Record<string, string>;
}

/**
 * Builds `view.state.values` from what the user entered. Elements the page did not send keep their
 * initial value. With `checkRequired`, empty required inputs are reported, as Slack's client
 * does before it lets a submission through.
 */
export function buildState(
  blocks: BlockObj[],
  raw: RawValues,
  ctx: StateContext,
  checkRequired: boolean,
): StateResult {
  const values: StateResult['values'] = {};
  const errors: Record<string, string> = {};
  for (const s of statefulElements(blocks)) {
    const given = raw[s.blockId]?.[s.actionId];
    const input = given === undefined ? initialRaw(s.element) : given;
    const { value, problem, empty } = elementState(s.element, input, ctx, s.blockId);
    values[s.blockId] ??= {};
    values[s.blockId][s.actionId] = value;
    if (!checkRequired || !s.inInput) continue;
    if (problem) errors[s.blockId] = problem;
    else if (empty && s.block.optional !== true) errors[s.blockId] = REQUIRED_MESSAGE;
  }
  return { values, errors };
}

/** The `actions[0]` object of a block_actions payload for one element and the user's choice. */
export function actionObject(
  element: ElementObj,
  blockId: string,
  raw: RawValue | undefined,
  ctx: StateContext,
  actionTs: string,
): Record<string, unknown> {
  const base: Record<string, unknown> = {
    type: element.type,
    action_id: element.action_id,
    block_id: blockId,
    action_ts: actionTs,
  };
  if (element.type === 'button') {
    base.text = element.text;
    if (element.value !== undefined) base.value = element.value;
    if (element.style !== undefined) base.style = element.style;
    if (element.url !== undefined) base.url = element.url;
    return base;
  }
  if (element.type === 'overflow') {
    const [v] = asList(raw);
    base.selected_option = (element.options ?? []).find((o) => o.value === v) ?? null;
    return base;
  }
  const given = raw === undefined ? initialRaw(element) : raw;
  const { value } = elementState(element, given, ctx, blockId);
  const { type: _type, ...rest } = value;
  if (element.placeholder) base.placeholder = element.placeholder;
  if (element.initial_option) base.initial_option = element.initial_option;
  if (element.initial_date) base.initial_date = element.initial_date;
  if (element.initial_user) base.initial_user = element.initial_user;
  return { ...base, ...rest };
}
