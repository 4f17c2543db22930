/**
 * What the form readers take of Slack's `view.state.values` (block_id → action_id → value).
 * A structural subset of Bolt's own type, so `view.state.values` is passed as it is, and
 * tests can hand the readers a plain object.
 */
export interface StateValue {
  value?: string | null;
  selected_date?: string | null;
  selected_option?: { value?: string } | null;
  selected_options?: { value?: string }[];
  files?: { id?: string }[];
}

export type StateValues = Record<string, Record<string, StateValue | undefined> | undefined>;
