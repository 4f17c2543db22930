/**
 * Service schema entries 4 and 5 (listed in migrations.ts): a task's people move into its row.
 */

/**
 * 4: a task's subscribers are a column of its row, a JSON array of user ids in order, not
 * rows of task_subscribers: a create writes its task in one row instead of three (a
 * subscriber row each for the creator and the assignees, with two foreign keys checked per
 * row), and a commit of many creates one B-tree fewer (about 5 of 32 WAL pages). Nothing
 * looks subscribers up by user, and users are never deleted (so no key is lost).
 */
export const subscribersInTaskRow = `
  ALTER TABLE tasks ADD COLUMN subscriber_ids TEXT NOT NULL DEFAULT '[]';
  UPDATE tasks SET subscriber_ids = (
    SELECT json_group_array(s.user_id ORDER BY s.position)
      FROM task_subscribers s WHERE s.task_id = tasks.id);
  DROP TABLE task_subscribers;
  `;

/**
 * 5: a task's assignees are a column of its row too, a JSON array in order of
 * {userId, createdBy, updatedBy, createdAt, updatedAt} (what task_assignees' rows held):
 * a create no longer inserts into a fourth B-tree (with its two foreign keys and a trigger
 * looking the task up again). project_assignees is kept by triggers on tasks instead.
 */
export const assigneesInTaskRow = `
  ALTER TABLE tasks ADD COLUMN assignees TEXT NOT NULL DEFAULT '[]';
  UPDATE tasks SET assignees = (
    SELECT json_group_array(json_object('userId', a.user_id, 'createdBy', a.created_by,
             'updatedBy', a.updated_by, 'createdAt', a.created_at, 'updatedAt', a.updated_at)
             ORDER BY a.position)
      FROM task_assignees a WHERE a.task_id = tasks.id);
  DROP TABLE task_assignees;
  CREATE TRIGGER project_assignees_of_new_task AFTER INSERT ON tasks
    WHEN NEW.assignees <> '[]' BEGIN
    INSERT INTO project_assignees (project_id, user_id, tasks)
      SELECT NEW.project_id, a.value ->> 'userId', 1 FROM json_each(NEW.assignees) a WHERE true
      ON CONFLICT (project_id, user_id) DO UPDATE SET tasks = tasks + 1;
  END;
  CREATE TRIGGER project_assignees_of_changed_task AFTER UPDATE OF assignees ON tasks BEGIN
    UPDATE project_assignees SET tasks = tasks - 1
     WHERE project_id = NEW.project_id AND user_id IN (
       SELECT o.value ->> 'userId' FROM json_each(OLD.assignees) o
       EXCEPT SELECT n.value ->> 'userId' FROM json_each(NEW.assignees) n);
    DELETE FROM project_assignees WHERE project_id = NEW.project_id AND tasks <= 0;
    INSERT INTO project_assignees (project_id, user_id, tasks)
      SELECT NEW.project_id, n.value ->> 'userId', 1 FROM json_each(NEW.assignees) n
       WHERE n.value ->> 'userId' NOT IN (
         SELECT o.value ->> 'userId' FROM json_each(OLD.assignees) o)
      ON CONFLICT (project_id, user_id) DO UPDATE SET tasks = tasks + 1;
  END;
  `;
