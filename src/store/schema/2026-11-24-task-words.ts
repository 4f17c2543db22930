/**
 * The task index searches the words src/store/tables/task-index/words.ts makes (one normaliser for both
 * engines), not each engine's own reading of the name: SQLite's FTS5 table now indexes a
 * `words` column of task_index (tokens split on spaces only, dots kept: "1.2.3"), and
 * PostgreSQL's `words` tsvector is built from the same words as they are. Existing rows get
 * `words` = empty here; the store fills them in at open (taskIndexStore / pgTaskIndexStore,
 * `fillWords`), since the words are made in JavaScript.
 */
import type { SchemaChange } from './schema-change.js';

export const change: SchemaChange = {
  id: '2026-11-24-task-words',
  sqlite: `
    DROP TRIGGER task_index_ai;
    DROP TRIGGER task_index_ad;
    DROP TRIGGER task_index_au;
    DROP TABLE task_index_fts;
    ALTER TABLE task_index ADD COLUMN words TEXT NOT NULL DEFAULT '';
    CREATE VIRTUAL TABLE task_index_fts USING fts5(
      words, content = 'task_index', content_rowid = 'rowid',
      tokenize = "unicode61 remove_diacritics 0 tokenchars '.'", prefix = '1 2 3'
    );
    CREATE TRIGGER task_index_ai AFTER INSERT ON task_index BEGIN
      INSERT INTO task_index_fts (rowid, words) VALUES (new.rowid, new.words);
    END;
    CREATE TRIGGER task_index_ad AFTER DELETE ON task_index BEGIN
      INSERT INTO task_index_fts (task_index_fts, rowid, words) VALUES ('delete', old.rowid, old.words);
    END;
    CREATE TRIGGER task_index_au AFTER UPDATE OF words ON task_index BEGIN
      INSERT INTO task_index_fts (task_index_fts, rowid, words) VALUES ('delete', old.rowid, old.words);
      INSERT INTO task_index_fts (rowid, words) VALUES (new.rowid, new.words);
    END;`,
  pg: `
    UPDATE task_index SET words = ''::tsvector;`,
};
