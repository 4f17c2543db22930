/**
 * Service text made storable (src/workapi/storable.ts): U+0000 and lone surrogates become
 * U+FFFD wherever they are in parsed service JSON; pairs, escaped backslashes and everything
 * else stay as they were.
 */
import { describe, expect, it } from 'vitest';
import { jsonOf } from '../../src/workapi/errors.js';
import { parseStorableJson, storable } from '../../src/workapi/storable.js';

describe('storable text', () => {
  it.each([
    ['a\u0000b', 'a\uFFFDb'],
    ['\uD800', '\uFFFD'],
    ['x\uDFFFy', 'x\uFFFDy'],
    ['\uDC00\uD800', '\uFFFD\uFFFD'],
    ['🚀 \uD83D\uDE80', '🚀 \uD83D\uDE80'],
    ['plain', 'plain'],
  ])('%j → %j', (input, output) => {
    expect(storable(input)).toBe(output);
  });

  it('cleans every string of parsed service JSON, keys included', () => {
    const text = '{"name":"a\\u0000b","list":["\\ud800",{"k\\u0000":"\\udfff ok"}],"n":1}';
    expect(parseStorableJson(text)).toEqual({
      name: 'a\uFFFDb',
      list: ['\uFFFD', { 'k\uFFFD': '\uFFFD ok' }],
      n: 1,
    });
    expect(jsonOf(text)?.value).toEqual(parseStorableJson(text));
  });

  it('leaves an escaped backslash followed by u0000 as the text it is', () => {
    expect(parseStorableJson('"\\\\u0000"')).toBe('\\u0000');
  });
});
