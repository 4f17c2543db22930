/**
 * One word normaliser for both engines (issue 24, finding 8): the same words find the same
 * tasks on SQLite and PostgreSQL — NFKC ("ﬁnal"), full case folding ("Straße" for `strasse`,
 * final sigma), accents removed, numbers with dots kept as tokens ("v1.2.3" for `1.2`). The
 * same table of queries runs on both engines; the index made before the change is filled in
 * at open.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { foldText, indexWords, queryWords } from '../../src/store/tables/task-index/words.js';
import { storeEngines } from '../support/store-engines.js';

const T = 'T_WORDS';

const TASKS = [
  'ﬁnal report',
  'Straße sperren',
  'ΣΊΣΥΦΟΣ rolls the stone',
  'Release v1.2.3 notes',
  'Café crème',
  'ＡＢＣ full width',
  'İstanbul office',
  'Plain login page',
];

/** Query → the tasks it must find (by name), on every engine. */
const TABLE: [string, string[]][] = [
  ['final', ['ﬁnal report']],
  ['ﬁnal', ['ﬁnal report']],
  ['strasse', ['Straße sperren']],
  ['STRASSE', ['Straße sperren']],
  ['straße', ['Straße sperren']],
  ['σισυφος', ['ΣΊΣΥΦΟΣ rolls the stone']],
  ['Σίσυφος', ['ΣΊΣΥΦΟΣ rolls the stone']],
  ['1.2', ['Release v1.2.3 notes']],
  ['1.2.3', ['Release v1.2.3 notes']],
  ['v1.2', ['Release v1.2.3 notes']],
  ['release 1.2', ['Release v1.2.3 notes']],
  ['creme cafe', ['Café crème']],
  ['CRÈME', ['Café crème']],
  ['abc', ['ＡＢＣ full width']],
  ['istanbul', ['İstanbul office']],
  ['login', ['Plain login page']],
  ['1.3', []],
  ['"NEAR(a b)" OR *', []],
  ["'; DROP", []],
];

describe('the normaliser', () => {
  it('folds as both engines search', () => {
    expect(foldText('Straße ΣΊΣΥΦΟΣ ﬁ Café')).toBe('strasse σισυφοσ fi cafe');
    expect(indexWords('Release v1.2.3')).toEqual(['release', 'v1', '2', '3', '1.2.3']);
    expect(queryWords('v1.2 and 1.2')).toEqual(['v1', '2', 'and', '1.2']);
  });
});

for (const engine of storeEngines()) {
  describe(engine.name, () => {
    let store: Store;
    beforeEach(async () => {
      store = await (await engine.fresh()).open();
      await store.taskIndex.recordMany(
        T,
        TASKS.map((name, i) => ({ taskId: `t${i}`.padEnd(24, '0'), projectId: 'p', name })),
      );
    });

    it.each(TABLE)('%s', async (query, found) => {
      const names = (await store.taskIndex.search(T, query)).map((t) => t.name).sort();
      expect(names).toEqual([...found].sort());
    });
  });
}

for (const engine of storeEngines()) {
  it(`${engine.name}: an index made before the shared words is filled in at open`, async () => {
    const db = await engine.fresh();
    let store = await db.open();
    await store.taskIndex.record(T, { taskId: 'x'.repeat(24), projectId: 'p', name: 'Straße' });
    await engine.exec(
      store,
      engine.name === 'SQLite'
        ? "UPDATE task_index SET words = ''"
        : "UPDATE task_index SET words = ''::tsvector",
    );
    expect(await store.taskIndex.search(T, 'strasse')).toEqual([]);
    await store.close();
    store = await db.open();
    expect((await store.taskIndex.search(T, 'strasse')).map((t) => t.name)).toEqual(['Straße']);
  });
}
