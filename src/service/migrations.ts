/**
 * Schema migrations, applied in order; `PRAGMA user_version` holds how many have run.
 * Append new entries; never edit one that has shipped.
 *
 * Calendar dates are TEXT `yyyy-MM-dd`, timestamps TEXT ISO UTC, booleans INTEGER 0/1.
 */
export const migrations: readonly string[] = [
  `
  CREATE TABLE workspaces (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL
  );

  CREATE TABLE users (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL DEFAULT '',
    profile_photo TEXT NOT NULL DEFAULT '',
    is_owner INTEGER NOT NULL DEFAULT 0,
    is_admin INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    UNIQUE (workspace_id, email)
  );

  CREATE TABLE api_keys (
    key_hash TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    created_by TEXT NOT NULL REFERENCES users(id),
    created_at TEXT NOT NULL
  );

  CREATE TABLE customers (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    company_name TEXT NOT NULL,
    first_name TEXT NOT NULL DEFAULT '',
    last_name TEXT NOT NULL DEFAULT '',
    email TEXT NOT NULL DEFAULT '',
    phone TEXT NOT NULL DEFAULT '',
    address TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL
  );
  CREATE INDEX customers_by_workspace ON customers (workspace_id, company_name);

  CREATE TABLE customer_clients (
    id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customers(id),
    name TEXT NOT NULL,
    email TEXT NOT NULL DEFAULT '',
    position INTEGER NOT NULL
  );
  CREATE INDEX clients_by_customer ON customer_clients (customer_id, position);

  CREATE TABLE projects (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    owner_id TEXT NOT NULL REFERENCES users(id),
    customer_id TEXT REFERENCES customers(id),
    start_date TEXT,
    due_date TEXT,
    priority_enabled INTEGER NOT NULL,
    default_priority INTEGER NOT NULL,
    estimate_enabled INTEGER NOT NULL,
    milestone_enabled INTEGER NOT NULL,
    groups_enabled INTEGER NOT NULL,
    labels_enabled INTEGER NOT NULL,
    icon_type INTEGER NOT NULL,
    icon_reference TEXT NOT NULL,
    icon_color INTEGER NOT NULL,
    next_task_number INTEGER NOT NULL DEFAULT 1,
    created_by TEXT NOT NULL REFERENCES users(id),
    updated_by TEXT NOT NULL REFERENCES users(id),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX projects_by_workspace ON projects (workspace_id);

  CREATE TABLE project_favorites (
    project_id TEXT NOT NULL REFERENCES projects(id),
    user_id TEXT NOT NULL REFERENCES users(id),
    PRIMARY KEY (project_id, user_id)
  );

  CREATE TABLE statuses (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id),
    name TEXT NOT NULL,
    type INTEGER NOT NULL CHECK (type IN (1, 2, 3)),
    position INTEGER NOT NULL,
    is_default INTEGER NOT NULL
  );
  CREATE INDEX statuses_by_project ON statuses (project_id, position);

  CREATE TABLE task_groups (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id),
    name TEXT NOT NULL,
    position INTEGER NOT NULL
  );
  CREATE INDEX groups_by_project ON task_groups (project_id, position);

  CREATE TABLE labels (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id),
    name TEXT NOT NULL,
    color TEXT NOT NULL,
    created_by TEXT NOT NULL,
    updated_by TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX labels_by_project ON labels (project_id);

  -- complete mirrors "the task's status has Type 3" so the completion filter can use an index;
  -- statuses never change type once created, so only a task's status change updates it.
  CREATE TABLE tasks (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id),
    task_number INTEGER NOT NULL,
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    status_id TEXT NOT NULL REFERENCES statuses(id),
    complete INTEGER NOT NULL,
    group_id TEXT REFERENCES task_groups(id),
    priority INTEGER NOT NULL,
    due_date TEXT,
    estimate_time INTEGER,
    milestone_id INTEGER,
    parent_task_id TEXT REFERENCES tasks(id),
    created_by TEXT NOT NULL REFERENCES users(id),
    updated_by TEXT NOT NULL REFERENCES users(id),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE UNIQUE INDEX tasks_by_number ON tasks (project_id, task_number);
  CREATE INDEX tasks_by_completion ON tasks (project_id, complete, task_number);

  CREATE TABLE task_assignees (
    task_id TEXT NOT NULL REFERENCES tasks(id),
    user_id TEXT NOT NULL REFERENCES users(id),
    position INTEGER NOT NULL,
    created_by TEXT NOT NULL,
    updated_by TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (task_id, user_id)
  );
  CREATE INDEX assignees_by_user ON task_assignees (user_id);

  CREATE TABLE task_subscribers (
    task_id TEXT NOT NULL REFERENCES tasks(id),
    user_id TEXT NOT NULL REFERENCES users(id),
    position INTEGER NOT NULL,
    PRIMARY KEY (task_id, user_id)
  );

  CREATE TABLE task_files (
    id TEXT PRIMARY KEY,
    task_id TEXT NOT NULL REFERENCES tasks(id),
    position INTEGER NOT NULL,
    file_type TEXT NOT NULL,
    href TEXT NOT NULL,
    name TEXT NOT NULL,
    size TEXT NOT NULL
  );
  CREATE INDEX files_by_task ON task_files (task_id, position);

  -- A task's Comments array: posted comments (type 1) and change records (types 2-8).
  CREATE TABLE activities (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    task_id TEXT NOT NULL REFERENCES tasks(id),
    type INTEGER NOT NULL CHECK (type BETWEEN 1 AND 8),
    comment TEXT,
    assignee TEXT,
    priority INTEGER,
    previous_priority INTEGER,
    due_date TEXT,
    previous_due_date TEXT,
    group_name TEXT,
    previous_group_name TEXT,
    status INTEGER,
    estimate_time INTEGER,
    created_by TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX activities_by_task ON activities (task_id, seq);

  -- Outbox of events, delivered in seq order; delivered_at is set only after a 2xx.
  CREATE TABLE events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    type TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    delivered_at TEXT
  );
  CREATE INDEX events_undelivered ON events (seq) WHERE delivered_at IS NULL;
  `,
  // 2: per project, who is assigned and how many tasks are open and done, kept by triggers:
  // a project's projectUsers is read from a few rows instead of every task's assignees (a
  // 10,000-task project answered get project in 7 ms, sorting 20,000 rows), and a page of
  // list tasks knows the list's length without counting it. Tasks never change project and
  // are not deleted.
  `
  CREATE TABLE project_task_counts (
    project_id TEXT NOT NULL REFERENCES projects(id),
    complete INTEGER NOT NULL,
    tasks INTEGER NOT NULL,
    PRIMARY KEY (project_id, complete)
  );
  INSERT INTO project_task_counts (project_id, complete, tasks)
    SELECT project_id, complete, COUNT(*) FROM tasks GROUP BY project_id, complete;

  CREATE TRIGGER project_task_added AFTER INSERT ON tasks BEGIN
    INSERT INTO project_task_counts (project_id, complete, tasks)
      VALUES (NEW.project_id, NEW.complete, 1)
      ON CONFLICT (project_id, complete) DO UPDATE SET tasks = tasks + 1;
  END;
  CREATE TRIGGER project_task_completion AFTER UPDATE OF complete ON tasks
    WHEN OLD.complete <> NEW.complete BEGIN
    UPDATE project_task_counts SET tasks = tasks - 1
     WHERE project_id = OLD.project_id AND complete = OLD.complete;
    INSERT INTO project_task_counts (project_id, complete, tasks)
      VALUES (NEW.project_id, NEW.complete, 1)
      ON CONFLICT (project_id, complete) DO UPDATE SET tasks = tasks + 1;
  END;

  CREATE TABLE project_assignees (
    project_id TEXT NOT NULL REFERENCES projects(id),
    user_id TEXT NOT NULL REFERENCES users(id),
    tasks INTEGER NOT NULL,
    PRIMARY KEY (project_id, user_id)
  );
  INSERT INTO project_assignees (project_id, user_id, tasks)
    SELECT t.project_id, a.user_id, COUNT(*)
      FROM task_assignees a JOIN tasks t ON t.id = a.task_id
     GROUP BY t.project_id, a.user_id;

  CREATE TRIGGER project_assignee_added AFTER INSERT ON task_assignees BEGIN
    INSERT INTO project_assignees (project_id, user_id, tasks)
      SELECT project_id, NEW.user_id, 1 FROM tasks WHERE id = NEW.task_id
      ON CONFLICT (project_id, user_id) DO UPDATE SET tasks = tasks + 1;
  END;
  CREATE TRIGGER project_assignee_removed AFTER DELETE ON task_assignees BEGIN
    UPDATE project_assignees SET tasks = tasks - 1
     WHERE project_id = (SELECT project_id FROM tasks WHERE id = OLD.task_id)
       AND user_id = OLD.user_id;
    DELETE FROM project_assignees
     WHERE project_id = (SELECT project_id FROM tasks WHERE id = OLD.task_id)
       AND user_id = OLD.user_id AND tasks <= 0;
  END;
  `,
  // 3: fewer B-trees written per create task (each one a page more in every commit, and an
  // insert more in every create): the tables keyed by two ids become WITHOUT ROWID (one tree
  // instead of a table and its key's index); assignees_by_user goes (no query looks assignees
  // up by user alone); the outbox keys events by seq alone — no AUTOINCREMENT (its
  // sqlite_sequence row was rewritten per event; seq stays one more than the largest, as events
  // are never deleted, and consumers see event ids, not seqs), no UNIQUE index on ids (made
  // unique by new-ids.ts), no partial index of undelivered events (delivery is strictly in
  // order, so they are the tail after the last delivered one: event-outbox.ts); and a task's
  // number is one more than the project's largest (tasks_by_number), not a counter in projects.
  // The triggers that name these tables are made again after them.
  `
  DROP TRIGGER project_task_added;
  DROP TRIGGER project_task_completion;
  DROP TRIGGER project_assignee_added;
  DROP TRIGGER project_assignee_removed;

  CREATE TABLE task_assignees_3 (
    task_id TEXT NOT NULL REFERENCES tasks(id),
    user_id TEXT NOT NULL REFERENCES users(id),
    position INTEGER NOT NULL,
    created_by TEXT NOT NULL,
    updated_by TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (task_id, user_id)
  ) WITHOUT ROWID;
  INSERT INTO task_assignees_3
    SELECT task_id, user_id, position, created_by, updated_by, created_at, updated_at
      FROM task_assignees;
  DROP TABLE task_assignees;
  ALTER TABLE task_assignees_3 RENAME TO task_assignees;

  CREATE TABLE task_subscribers_3 (
    task_id TEXT NOT NULL REFERENCES tasks(id),
    user_id TEXT NOT NULL REFERENCES users(id),
    position INTEGER NOT NULL,
    PRIMARY KEY (task_id, user_id)
  ) WITHOUT ROWID;
  INSERT INTO task_subscribers_3 SELECT task_id, user_id, position FROM task_subscribers;
  DROP TABLE task_subscribers;
  ALTER TABLE task_subscribers_3 RENAME TO task_subscribers;

  CREATE TABLE project_task_counts_3 (
    project_id TEXT NOT NULL REFERENCES projects(id),
    complete INTEGER NOT NULL,
    tasks INTEGER NOT NULL,
    PRIMARY KEY (project_id, complete)
  ) WITHOUT ROWID;
  INSERT INTO project_task_counts_3 SELECT project_id, complete, tasks FROM project_task_counts;
  DROP TABLE project_task_counts;
  ALTER TABLE project_task_counts_3 RENAME TO project_task_counts;

  CREATE TABLE project_assignees_3 (
    project_id TEXT NOT NULL REFERENCES projects(id),
    user_id TEXT NOT NULL REFERENCES users(id),
    tasks INTEGER NOT NULL,
    PRIMARY KEY (project_id, user_id)
  ) WITHOUT ROWID;
  INSERT INTO project_assignees_3 SELECT project_id, user_id, tasks FROM project_assignees;
  DROP TABLE project_assignees;
  ALTER TABLE project_assignees_3 RENAME TO project_assignees;

  CREATE TABLE events_3 (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL,
    type TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    delivered_at TEXT
  );
  INSERT INTO events_3
    SELECT seq, id, type, workspace_id, payload, created_at, attempts, last_error, delivered_at
      FROM events;
  DROP TABLE events;
  ALTER TABLE events_3 RENAME TO events;
  DELETE FROM sqlite_sequence WHERE name = 'events';

  ALTER TABLE projects DROP COLUMN next_task_number;

  CREATE TRIGGER project_task_added AFTER INSERT ON tasks BEGIN
    INSERT INTO project_task_counts (project_id, complete, tasks)
      VALUES (NEW.project_id, NEW.complete, 1)
      ON CONFLICT (project_id, complete) DO UPDATE SET tasks = tasks + 1;
  END;
  CREATE TRIGGER project_task_completion AFTER UPDATE OF complete ON tasks
    WHEN OLD.complete <> NEW.complete BEGIN
    UPDATE project_task_counts SET tasks = tasks - 1
     WHERE project_id = OLD.project_id AND complete = OLD.complete;
    INSERT INTO project_task_counts (project_id, complete, tasks)
      VALUES (NEW.project_id, NEW.complete, 1)
      ON CONFLICT (project_id, complete) DO UPDATE SET tasks = tasks + 1;
  END;
  CREATE TRIGGER project_assignee_added AFTER INSERT ON task_assignees BEGIN
    INSERT INTO project_assignees (project_id, user_id, tasks)
      SELECT project_id, NEW.user_id, 1 FROM tasks WHERE id = NEW.task_id
      ON CONFLICT (project_id, user_id) DO UPDATE SET tasks = tasks + 1;
  END;
  CREATE TRIGGER project_assignee_removed AFTER DELETE ON task_assignees BEGIN
    UPDATE project_assignees SET tasks = tasks - 1
     WHERE project_id = (SELECT project_id FROM tasks WHERE id = OLD.task_id)
       AND user_id = OLD.user_id;
    DELETE FROM project_assignees
     WHERE project_id = (SELECT project_id FROM tasks WHERE id = OLD.task_id)
       AND user_id = OLD.user_id AND tasks <= 0;
  END;
  `,
  // 4: a task's subscribers are a column of its row, a JSON array of user ids in order, not
  // rows of task_subscribers: a create writes its task in one row instead of three (a
  // subscriber row each for the creator and the assignees, with two foreign keys checked per
  // row), and a commit of many creates one B-tree fewer (about 5 of 32 WAL pages). Nothing
  // looks subscribers up by user, and users are never deleted (so no key is lost).
  `
  ALTER TABLE tasks ADD COLUMN subscriber_ids TEXT NOT NULL DEFAULT '[]';
  UPDATE tasks SET subscriber_ids = (
    SELECT json_group_array(s.user_id ORDER BY s.position)
      FROM task_subscribers s WHERE s.task_id = tasks.id);
  DROP TABLE task_subscribers;
  `,
];
