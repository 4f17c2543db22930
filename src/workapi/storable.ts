/**
 * Text from the service made storable on every engine, at the one place service JSON is
 * parsed (errors.ts `jsonOf`, also used by the events receiver).
 *
 * PostgreSQL refuses U+0000 in text (`invalid byte sequence for encoding "UTF8": 0x00`) and
 * in jsonb, and a lone UTF-16 surrogate has no UTF-8 form at all (drivers turn it into
 * U+FFFD on one engine and keep it on the other). One task named with either stopped every
 * later write of its team's pipeline; replaced here, it is stored like any other text.
 */

/** What U+0000 and each lone surrogate become. */
export const REPLACEMENT = '\uFFFD';

/** U+0000, and any surrogate that is not half of a pair. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is what this replaces.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * In JSON text these can only arrive escaped (`\u0000`, `\ud800`): a raw NUL is not valid
 * JSON and decoded UTF-8 has no lone surrogates. The escape's backslash may itself be
 * escaped (`\\u0000` is the six characters), which the slower walk sorts out.
 */
const MAYBE_UNSTORABLE = /\\u(?:0000|d[89a-f])/i;

/** `text` with U+0000 and lone surrogates replaced by U+FFFD. */
export function storable(text: string): string {
  return text.replace(UNSTORABLE, REPLACEMENT);
}

/** JSON.parse, with every string (keys too) made storable. Throws as JSON.parse does. */
export function parseStorableJson(text: string): unknown {
  if (!MAYBE_UNSTORABLE.test(text)) return JSON.parse(text);
  return clean(JSON.parse(text));
}

function clean(value: unknown): unknown {
  if (typeof value === 'string') return storable(value);
  if (Array.isArray(value)) return value.map(clean);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[storable(k)] = clean(v);
    return out;
  }
  return value;
}
