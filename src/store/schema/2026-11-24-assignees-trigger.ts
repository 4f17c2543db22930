/**
 * PostgreSQL: task_index_assignees (who is on which task, for "my tasks") follows
 * task_index.assignees by a trigger, so a sighting is recorded in ONE statement without a
 * transaction (tables/task-index/pg-sightings.ts). The trigger runs while the task's row is
 * locked and reads what is committed, so two instances recording one task at once leave
 * exactly the last one's assignees (the statement's own snapshot could not see the other's
 * rows). It fires only when the list changed. SQLite writes both tables in the sighting's
 * transaction on its one connection: nothing to change there.
 */
import type { SchemaChange } from './schema-change.js';

export const change: SchemaChange = {
  id: '2026-11-24-assignees-trigger',
  sqlite: `
    SELECT 1;`,
  pg: `
    CREATE FUNCTION task_index_assignees_follow() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM task_index_assignees
       WHERE team_id = NEW.team_id AND task_id = NEW.task_id
         AND NOT (user_id = ANY (NEW.assignees));
      INSERT INTO task_index_assignees (team_id, user_id, task_id)
      SELECT NEW.team_id, u, NEW.task_id FROM unnest(NEW.assignees) AS u
      ON CONFLICT DO NOTHING;
      RETURN NULL;
    END $$;
    CREATE TRIGGER task_index_assignees_ai AFTER INSERT ON task_index
      FOR EACH ROW WHEN (cardinality(NEW.assignees) > 0)
      EXECUTE FUNCTION task_index_assignees_follow();
    CREATE TRIGGER task_index_assignees_au AFTER UPDATE OF assignees ON task_index
      FOR EACH ROW WHEN (OLD.assignees IS DISTINCT FROM NEW.assignees)
      EXECUTE FUNCTION task_index_assignees_follow();`,
};
