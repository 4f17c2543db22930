/**
 * SQLite: re-recording a task whose words did not change (every `/work list` records the
 * tasks it shows) no longer rewrites its full-text entry — `task_index_au` fires only when
 * the words differ (re-recording 250 unchanged tasks measured 2.7× faster). PostgreSQL keeps
 * its words in a tsvector column with no trigger: nothing to change there.
 */
import type { SchemaChange } from './schema-change.js';

export const change: SchemaChange = {
  id: '2026-11-24-words-unchanged',
  sqlite: `
    DROP TRIGGER task_index_au;
    CREATE TRIGGER task_index_au AFTER UPDATE OF words ON task_index
    WHEN old.words IS NOT new.words BEGIN
      INSERT INTO task_index_fts (task_index_fts, rowid, words) VALUES ('delete', old.rowid, old.words);
      INSERT INTO task_index_fts (rowid, words) VALUES (new.rowid, new.words);
    END;`,
  pg: `
    SELECT 1;`,
};
