/**
 * Every payload gets an answer. Two global middlewares, first in the chain:
 *
 * - `normalizePayload` gives the readers the types Slack documents: an element's `value` is a
 *   string (a number becomes its text), `selected_option(s)`, `files` and the `selected_*`
 *   fields hold what they should or nothing. A hostile or buggy client sending `value: 5` or
 *   `files: [null]` then reads as an odd input, not a TypeError before ack.
 * - `answerOnFailure` catches whatever a listener still throws and answers the request that
 *   was not answered yet (Bolt would otherwise wait 3 s and send a 404): a modal turns into a
 *   notice, a command gets a sentence, anything else an empty ack plus a sentence to its
 *   response_url. The error then goes on to app.error, which logs it.
 */
import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import { CANNOT_SAVE, isStorageFault, reportStorageFault } from '../store/storage-fault.js';
import type { WorklinkDeps } from './context/deps.js';
import { APOLOGY } from './ui/error-text.js';
import { noticeModal } from './ui/notice-modal.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const asText = (v: unknown): string | null =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : null;
const isOption = (v: unknown): v is Json => isObject(v) && typeof v.value === 'string';

/** One element's state (or one pressed action), in place. */
function normalizeElement(el: Json): void {
  if ('value' in el) el.value = asText(el.value);
  if (isObject(el.selected_option) && typeof el.selected_option.value === 'number') {
    el.selected_option.value = String(el.selected_option.value);
  }
  if ('selected_option' in el && !isOption(el.selected_option)) el.selected_option = null;
  if ('selected_options' in el) {
    el.selected_options = Array.isArray(el.selected_options)
      ? el.selected_options.filter(isOption)
      : [];
  }
  if ('files' in el) el.files = Array.isArray(el.files) ? el.files.filter(isObject) : [];
  for (const key of Object.keys(el)) {
    if (/^selected_(date|time|date_time|user|conversation|channel)$/.test(key)) {
      el[key] = asText(el[key]);
    } else if (/^selected_(users|conversations|channels)$/.test(key)) {
      el[key] = Array.isArray(el[key])
        ? (el[key] as unknown[]).filter((x) => typeof x === 'string')
        : [];
    }
  }
}

/** Slack's interaction payload with odd types made plain, in place (readers share the object). */
export function normalizeInteraction(body: unknown): void {
  if (!isObject(body)) return;
  const values =
    isObject(body.view) && isObject(body.view.state) ? body.view.state.values : undefined;
  if (isObject(values)) {
    for (const [blockId, block] of Object.entries(values)) {
      if (!isObject(block)) {
        delete values[blockId];
        continue;
      }
      for (const [actionId, el] of Object.entries(block)) {
        if (isObject(el)) normalizeElement(el);
        else delete block[actionId];
      }
    }
  }
  if (Array.isArray(body.actions)) body.actions = body.actions.filter(isObject);
  for (const action of (body.actions as Json[] | undefined) ?? []) normalizeElement(action);
  if (isObject(body.message) && 'files' in body.message) {
    body.message.files = Array.isArray(body.message.files)
      ? body.message.files.filter(isObject)
      : [];
  }
}

export const normalizePayload: Middleware<AnyMiddlewareArgs> = async ({ body, next }) => {
  normalizeInteraction(body);
  await next();
};

type Ack = (response?: unknown) => Promise<void>;
type Respond = (message: Json) => Promise<unknown>;

export function answerOnFailure(deps: WorklinkDeps): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    try {
      await args.next();
    } catch (error) {
      const { ack, respond } = args as { ack?: Ack; respond?: Respond };
      const type = (args.body as { type?: string; command?: string }).type;
      const command = (args.body as { command?: string }).command;
      let answered = false;
      // A full or failing database is said as such (and logged once a minute, not each time).
      const storage = isStorageFault(error);
      if (storage) reportStorageFault(deps.logger, error);
      const sorry = storage ? CANNOT_SAVE : APOLOGY;
      if (ack) {
        const answer =
          type === 'view_submission'
            ? { response_action: 'update', view: noticeModal('Worklink', sorry) }
            : command
              ? { response_type: 'ephemeral', text: sorry }
              : type === 'block_suggestion'
                ? { options: [] }
                : undefined;
        // Throws when the listener had acked already: then there is nothing left to answer.
        answered = await ack(answer).then(
          () => true,
          () => false,
        );
      }
      if (answered && respond && type !== 'view_submission' && !command) {
        await respond({ response_type: 'ephemeral', replace_original: false, text: sorry }).catch(
          (e: unknown) => deps.logger.warn(`Could not send the apology: ${(e as Error).message}`),
        );
      }
      throw error;
    }
  };
}
