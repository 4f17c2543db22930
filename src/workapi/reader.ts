/**
 * Reading a 2xx answer tolerantly (docs/hosted-service.md):
 * - envelopes `{data: …}`, `{result: …}` and `{<plural>: [...]}` are unwrapped;
 * - a list is read item by item: an unreadable item is dropped (and logged at debug with
 *   the operation), not the whole list; a list given as one object is a list of one;
 * - a write's answer is a bonus: any 2xx means done, and an empty, 204 or odd body reads as
 *   `undefined` ("done, but the service did not say what it made").
 */
import type { z } from 'zod';
import { jsonOf, WorkApiError } from './errors.js';
import type { ClientOperationName } from './operations.js';
import { isRecord } from './records.js';
import type { ItemReader } from './responses.js';

export interface DebugLog {
  debug(message: string): void;
}

const ENVELOPES = ['data', 'result'] as const;

/** `{data: x}` or `{result: x}` with nothing else that matters → x. */
function unwrapEnvelope(v: unknown, idKeys: readonly string[]): unknown {
  let inner = v;
  for (let depth = 0; depth < 3; depth++) {
    const outer = inner;
    if (!isRecord(outer)) return outer;
    if (idKeys.some((k) => outer[k] !== undefined && outer[k] !== null)) return outer;
    const key = ENVELOPES.find((k) => isRecord(outer[k]) || Array.isArray(outer[k]));
    if (!key) return outer;
    inner = outer[key];
  }
  return inner;
}

/** The items of a list answer: an array, `{tasks: [...]}`, or one object. */
function listItems(v: unknown, idKeys: readonly string[]): unknown[] | undefined {
  const inner = unwrapEnvelope(v, idKeys);
  if (Array.isArray(inner)) return inner;
  if (!isRecord(inner)) return undefined;
  if (idKeys.some((k) => inner[k] !== undefined)) return [inner];
  const arrays = Object.values(inner).filter((v): v is unknown[] => Array.isArray(v));
  return arrays.length === 1 ? arrays[0] : undefined;
}

function unexpected(name: ClientOperationName, what: string): WorkApiError {
  return new WorkApiError(name, 200, 'server', `The service answered ${what}.`);
}

/** One object a read needs (its id at least); else a 'server' failure. */
export function readOne<T>(
  name: ClientOperationName,
  schema: z.ZodType<T>,
  idKeys: readonly string[],
  text: string,
): T {
  const json = jsonOf(text);
  if (!json) throw unexpected(name, 'with something that is not JSON');
  const parsed = schema.safeParse(unwrapEnvelope(json.value, idKeys));
  if (!parsed.success) throw unexpected(name, `without the ${idKeys[0]} Worklink needs`);
  return parsed.data;
}

/** The readable items of a list; unreadable ones are logged and dropped. */
export function readList<T>(
  name: ClientOperationName,
  item: ItemReader<T>,
  idKeys: readonly string[],
  text: string,
  log?: DebugLog,
): T[] {
  const json = text.trim() === '' ? { value: [] } : jsonOf(text);
  if (!json) throw unexpected(name, 'with something that is not JSON');
  const items = json.value === null ? [] : listItems(json.value, idKeys);
  if (!items) throw unexpected(name, 'with something that is not a list');
  const kept: T[] = [];
  items.forEach((raw, i) => {
    const parsed = item.safeParse(raw);
    if (parsed.success) kept.push(parsed.data);
    else log?.debug(`${name}: dropped list item ${i}, it has no readable ${idKeys[0]}`);
  });
  return kept;
}

/** What a write's 2xx answer says it made, or undefined when it does not say. */
export function readWritten<T>(
  schema: z.ZodType<T>,
  idKeys: readonly string[],
  text: string,
): T | undefined {
  const json = jsonOf(text);
  if (!json) return undefined;
  const parsed = schema.safeParse(unwrapEnvelope(json.value, idKeys));
  return parsed.success ? parsed.data : undefined;
}
