/**
 * The two vocabularies response shapes are written in (see responses.ts):
 *
 * - strict: every field present with the spec's type, no unknown field. The embedded
 *   service's contract tests hold it to this.
 * - tolerant: what WorkClient reads. The hosted service answers from a document store:
 *   `_id` beside documented ids, nulls, extra fields, numbers as strings, plain dates,
 *   epoch milliseconds. Only ids are required; any other field that is missing, null or
 *   unreadable becomes undefined ("unknown") instead of failing the whole answer, and
 *   neighbouring types are read as what the field means (docs/hosted-service.md).
 */
import { z } from 'zod';
import { priorityNumber } from './priority.js';
import { isRecord } from './records.js';

/** A field that may turn out unknown (an optional key in the inferred object type). */
type Opt<T> = z.ZodOptional<z.ZodType<T>>;
type Shape = z.ZodRawShape;
type Out<S extends Shape> = z.output<z.ZodObject<S>>;

export interface ObjOptions {
  /** The id field this object is required to have (`taskId`, `_id`, …). */
  id?: string;
  /** Other names the id may come under; `_id` is always accepted. */
  aliases?: readonly string[];
  /** A bare id (string) stands for the object `{[id]: value}` (assignee lists). */
  fromBareId?: boolean;
  /** Other names a field may come under (tolerant reading): `{taskNumber: ['TaskNumber']}`. */
  fieldAliases?: Readonly<Record<string, readonly string[]>>;
}

export interface Fields {
  /** Required, non-empty. */
  id: z.ZodType<string>;
  text: Opt<string>;
  nullableText: Opt<string | null>;
  int: Opt<number>;
  nullableInt: Opt<number | null>;
  num: Opt<number>;
  nullableNum: Opt<number | null>;
  bool: Opt<boolean>;
  nullableBool: Opt<boolean | null>;
  /** ISO 8601 date-time (UTC in the tolerant reading). */
  dateTime: Opt<string>;
  nullableDateTime: Opt<string | null>;
  texts: Opt<string[]>;
  /** Task priority, a decimal string "0"–"4" in Task responses. */
  priorityString: Opt<string>;
  /** Priority as an integer 0–4 (updated task, project details). */
  priorityInt: Opt<number>;
  /** A top-level or list-item object (fails when its id is missing). */
  obj<S extends Shape>(shape: S, options?: ObjOptions): z.ZodType<Out<S>>;
  /** An object nested in another one. */
  nested<S extends Shape>(shape: S): Opt<Out<S>>;
  nullableNested<S extends Shape>(shape: S): Opt<Out<S> | null>;
  /** A list nested in an object; in the tolerant reading bad items are dropped. */
  list<T>(item: z.ZodType<T>): Opt<T[]>;
  /** A whole-answer list (strict only; WorkClient reads lists item by item). */
  answerList<T>(item: z.ZodType<T>): z.ZodType<T[]>;
}

// ── Strict ──────────────────────────────────────────────────────────────────

const strictDateTime = z.iso.datetime({ offset: true });

/** Casts keep one static type for both readings: the tolerant one (fields may be unknown). */
export const strictFields = {
  id: z.string(),
  text: z.string(),
  nullableText: z.string().nullable(),
  int: z.number().int(),
  nullableInt: z.number().int().nullable(),
  num: z.number(),
  nullableNum: z.number().nullable(),
  bool: z.boolean(),
  nullableBool: z.boolean().nullable(),
  dateTime: strictDateTime,
  nullableDateTime: strictDateTime.nullable(),
  texts: z.array(z.string()),
  priorityString: z.string().regex(/^[0-4]$/),
  priorityInt: z.number().int().min(0).max(4),
  obj: (shape: Shape) => z.strictObject(shape),
  nested: (shape: Shape) => z.strictObject(shape),
  nullableNested: (shape: Shape) => z.strictObject(shape).nullable(),
  list: (item: z.ZodType) => z.array(item),
  answerList: (item: z.ZodType) => z.array(item),
} as unknown as Fields;

// ── Tolerant ────────────────────────────────────────────────────────────────

/** `prep` reads the raw value; anything it cannot read, or that `schema` refuses, is unknown. */
function lenient<T>(prep: (v: unknown) => unknown, schema: z.ZodType<T>): Opt<T> {
  return z.preprocess(prep, schema.optional()).catch(undefined) as unknown as Opt<T>;
}

/** `null` means "not set": kept where the field can say so, else unknown. */
const keepNull =
  (read: (v: unknown) => unknown, nullable: boolean) =>
  (v: unknown): unknown =>
    v === null ? (nullable ? null : undefined) : read(v);

export function readText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'boolean') return String(v);
  return undefined;
}

export function readNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
  return undefined;
}

export function readBool(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === 0) return v === 1;
  if (typeof v !== 'string') return undefined;
  const s = v.trim().toLowerCase();
  if (s === 'true' || s === '1') return true;
  if (s === 'false' || s === '0') return false;
  return undefined;
}

/** An id: a non-empty string, a number's decimal form, or a document store's `{$oid}`. */
export function readId(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim() || undefined;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (isRecord(v) && typeof v.$oid === 'string') {
    return v.$oid.trim() || undefined;
  }
  return undefined;
}

/**
 * A date or date-time as ISO 8601 UTC: `2026-03-01`, `2026-03-01T10:00:00` (no zone: UTC),
 * `2026-03-01T10:00:00+02:00`, epoch milliseconds (number or digits). Else undefined.
 */
export function readDateTime(v: unknown): string | undefined {
  if (typeof v === 'number') return fromMs(v);
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  if (/^\d{11,14}$/.test(s)) return fromMs(Number(s));
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (date) {
    const iso = fromMs(Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3])));
    // Date.UTC rolls 2026-02-30 over to March: such a date is not a date.
    return iso?.startsWith(s) ? iso : undefined;
  }
  const m =
    /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(s);
  if (!m) return undefined;
  const zone = (m[3] ?? 'Z').toUpperCase().replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
  return fromMs(Date.parse(`${m[1]}T${m[2]}${zone}`));
}

function fromMs(ms: number): string | undefined {
  if (!Number.isFinite(ms)) return undefined;
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

const asInt = (v: unknown) => {
  const n = readNumber(v);
  return n !== undefined && Number.isInteger(n) ? n : undefined;
};
const textList = (v: unknown) =>
  Array.isArray(v) ? v.map(readId).filter((s): s is string => s !== undefined) : undefined;

/** Copies the id from `_id` (or another alias) when the documented name is missing. */
function withId(v: unknown, options: ObjOptions): unknown {
  const { id } = options;
  if (!id) return withFieldAliases(v, options);
  if (options.fromBareId && readId(v) !== undefined && typeof v !== 'object') {
    return { [id]: readId(v) };
  }
  if (!isRecord(v)) return v;
  let value = readId(v[id]);
  for (const alias of ['_id', ...(options.aliases ?? [])]) {
    value ??= readId(v[alias]);
  }
  return withFieldAliases(value === undefined ? v : { ...v, [id]: value }, options);
}

/** A field missing (or null) under its documented name is read from its first other name. */
function withFieldAliases(v: unknown, { fieldAliases }: ObjOptions): unknown {
  if (!fieldAliases || !isRecord(v)) return v;
  let out = v;
  for (const [field, names] of Object.entries(fieldAliases)) {
    if (out[field] !== undefined && out[field] !== null) continue;
    const from = names.find((n) => out[n] !== undefined && out[n] !== null);
    if (from !== undefined) out = { ...out, [field]: out[from] };
  }
  return out;
}

export const tolerantFields: Fields = {
  id: z.preprocess(readId, z.string()) as unknown as z.ZodType<string>,
  text: lenient(keepNull(readText, false), z.string()),
  nullableText: lenient(keepNull(readText, true), z.string().nullable()),
  int: lenient(keepNull(asInt, false), z.number()),
  nullableInt: lenient(keepNull(asInt, true), z.number().nullable()),
  num: lenient(keepNull(readNumber, false), z.number()),
  nullableNum: lenient(keepNull(readNumber, true), z.number().nullable()),
  bool: lenient(keepNull(readBool, false), z.boolean()),
  nullableBool: lenient(keepNull(readBool, true), z.boolean().nullable()),
  dateTime: lenient(keepNull(readDateTime, false), z.string()),
  nullableDateTime: lenient(keepNull(readDateTime, true), z.string().nullable()),
  texts: lenient(keepNull(textList, false), z.array(z.string())),
  priorityString: lenient((v) => {
    const n = priorityNumber(v);
    return n === undefined ? undefined : String(n);
  }, z.string()),
  priorityInt: lenient((v) => priorityNumber(v), z.number()),
  obj: <S extends Shape>(shape: S, options: ObjOptions = {}) =>
    z.preprocess((v) => withId(v, options), z.looseObject(shape)) as unknown as z.ZodType<Out<S>>,
  nested: <S extends Shape>(shape: S) =>
    lenient(
      keepNull((v) => v, false),
      z.looseObject(shape),
    ) as unknown as Opt<Out<S>>,
  nullableNested: <S extends Shape>(shape: S) =>
    lenient(
      keepNull((v) => v, true),
      z.looseObject(shape).nullable(),
    ) as unknown as Opt<Out<S> | null>,
  list: <T>(item: z.ZodType<T>) =>
    lenient(
      keepNull((v) => (Array.isArray(v) ? v : undefined), false),
      z.array(z.unknown()).transform((items) => keepReadable(items, item)),
    ) as unknown as Opt<T[]>,
  answerList: <T>(item: z.ZodType<T>) =>
    z.array(z.unknown()).transform((items) => keepReadable(items, item)) as unknown as z.ZodType<
      T[]
    >,
};

/** The items `item` can read; the others are dropped. */
function keepReadable<T>(items: unknown[], item: z.ZodType<T>): T[] {
  const kept: T[] = [];
  for (const raw of items) {
    const parsed = item.safeParse(raw);
    if (parsed.success) kept.push(parsed.data);
  }
  return kept;
}
