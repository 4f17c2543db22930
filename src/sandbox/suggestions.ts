// Select menus with an external data source (external_select): what the sandbox asks the app
// while a user types (a block_suggestion, answered with `options` or `option_groups`), how it
// reads the answer, and the options it has offered in each message or view, so a choice
// reaches the app later as the whole option object (`selected_option`), as Slack sends it.

import { z } from 'zod';
import { errMessage } from '../error-message.js';
import type { ElementObj, OptionObj } from './block-kit.js';
import { validateOptionsAnswer } from './block-validation.js';
import type { SuggestAnswer } from './page/types.js';
import type { Delivery } from './signer.js';

/** What the page gets back for what the user typed (typed once, for the page's check too). */
export type SuggestResult = SuggestAnswer;

/** Slack asks the app only once this many characters are typed, unless the element says. */
export const DEFAULT_MIN_QUERY_LENGTH = 3;

export const SUGGESTION_TYPES = new Set(['external_select', 'multi_external_select']);

export function minQueryLength(element: ElementObj): number {
  const n = element.min_query_length;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : DEFAULT_MIN_QUERY_LENGTH;
}

const NO_OPTIONS = 'The app did not offer options for that.';

const Text = z.object({
  type: z.string(),
  text: z.string(),
  emoji: z.boolean().optional(),
  verbatim: z.boolean().optional(),
});
/** Only what Slack's client uses of an option is handed on: text, value, description. */
const Option = z.object({ text: Text, value: z.string(), description: Text.optional() });
/** An answer Slack takes (validateOptionsAnswer said so): options, else option groups. */
const OptionsAnswer = z.union([
  z.object({ options: z.array(Option) }),
  z.object({ option_groups: z.array(z.object({ label: Text, options: z.array(Option) })) }),
]);

/**
 * The app's HTTP answer as options, or the sentence the page shows. Bad answers are noted in
 * the sandbox log (`note`) with what was wrong, as Slack's client just shows an empty menu.
 */
export function readSuggestionAnswer(d: Delivery, note: (text: string) => void): SuggestResult {
  if (d.status < 200 || d.status >= 300) {
    return { ok: false, status: d.status, problem: NO_OPTIONS };
  }
  let answer: unknown;
  try {
    answer = JSON.parse(d.body);
  } catch (e) {
    note(`the app answered with something other than JSON (${errMessage(e)}).`);
    return { ok: false, status: d.status, problem: NO_OPTIONS };
  }
  const problems = validateOptionsAnswer(answer);
  if (problems.length > 0) {
    note(`invalid options — ${problems.slice(0, 3).join('; ')}`);
    return { ok: false, status: d.status, problem: NO_OPTIONS };
  }
  const read = OptionsAnswer.safeParse(answer);
  if (!read.success) {
    note(`invalid options — ${read.error.issues[0]?.message ?? 'not options'}`);
    return { ok: false, status: d.status, problem: NO_OPTIONS };
  }
  return 'options' in read.data
    ? { ok: true, status: d.status, options: read.data.options }
    : { ok: true, status: d.status, option_groups: read.data.option_groups };
}

/** Containers remembered at most (oldest forgotten first); a sandbox session needs few. */
const MAX_CONTAINERS = 200;
/** Options remembered per element at most. */
const MAX_PER_ELEMENT = 1000;

/** The options offered per container (message or view) and element, by value. */
export class OfferedOptions {
  private readonly byContainer = new Map<string, Map<string, Map<string, OptionObj>>>();

  remember(container: string, blockId: string, actionId: string, options: OptionObj[]): void {
    let elements = this.byContainer.get(container);
    if (elements) this.byContainer.delete(container);
    elements ??= new Map();
    this.byContainer.set(container, elements);
    if (this.byContainer.size > MAX_CONTAINERS) {
      const oldest = this.byContainer.keys().next().value;
      if (oldest !== undefined) this.byContainer.delete(oldest);
    }
    const key = `${blockId}/${actionId}`;
    const known = elements.get(key) ?? new Map<string, OptionObj>();
    elements.set(key, known);
    for (const o of options) {
      known.delete(o.value);
      known.set(o.value, o);
    }
    for (const value of known.keys()) {
      if (known.size <= MAX_PER_ELEMENT) break;
      known.delete(value);
    }
  }

  find(container: string, blockId: string, actionId: string, value: string): OptionObj | undefined {
    return this.byContainer.get(container)?.get(`${blockId}/${actionId}`)?.get(value);
  }
}

/** Every option of an answer, groups flattened. */
export function offeredIn(result: SuggestResult): OptionObj[] {
  return [...(result.options ?? []), ...(result.option_groups ?? []).flatMap((g) => g.options)];
}
