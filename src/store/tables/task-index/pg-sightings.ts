/**
 * Recording task sightings in the PostgreSQL task index: the merge rules of sqlite.ts
 * (absent fields kept, null clears, a new done flag drops a stale status name, assignees
 * replaced when given), for a whole list in a fixed number of statements — a list read of
 * hundreds of tasks is one locked read, one upsert and the assignees' rewrite, not a round
 * trip per task. The rows are locked (in task id order, so two instances recording
 * overlapping lists cannot deadlock) until the transaction ends, so neither loses the
 * other's fields, also for a task both see first.
 */

import type { Sql } from '../../pg/db.js';
import { indexDate, type TaskSighting } from './contract.js';
import { nameWords, wordsVector } from './pg-words.js';

/** A task_index row as PostgreSQL returns it (every column but `words`). */
export interface Row {
  team_id: string;
  task_id: string;
  project_id: string;
  number: number | null;
  name: string;
  done: boolean;
  gone: boolean;
  status_name: string | null;
  due_date: string | null;
  priority: number | null;
  assignees: string[];
  creator_id: string | null;
  read_at: number | null;
  seen_at: number;
}

export const COLUMNS = [
  'team_id',
  'task_id',
  'project_id',
  'number',
  'name',
  'done',
  'gone',
  'status_name',
  'due_date',
  'priority',
  'assignees',
  'creator_id',
  'read_at',
  'seen_at',
] as const;

export const ROW = COLUMNS.join(', ');

/** The row a sighting leaves, from the row before it; undefined without a known project. */
function merge(
  teamId: string,
  s: TaskSighting,
  old: Row | undefined,
  now: number,
): Row | undefined {
  const projectId = s.projectId || old?.project_id;
  if (!projectId) return undefined;
  const pick = <T>(given: T | null | undefined, kept: T | null | undefined): T | null =>
    given === undefined ? (kept ?? null) : given;
  return {
    team_id: teamId,
    task_id: s.taskId,
    project_id: projectId,
    number: pick(s.number, old?.number),
    name: s.name ?? old?.name ?? '',
    done: s.done ?? old?.done ?? false,
    gone: false,
    // A new done flag without a status name makes the old name stale.
    status_name:
      s.statusName !== undefined
        ? s.statusName
        : s.done !== undefined && old && s.done !== old.done
          ? null
          : (old?.status_name ?? null),
    due_date: s.dueDate === undefined ? (old?.due_date ?? null) : (indexDate(s.dueDate) ?? null),
    priority: pick(s.priority, old?.priority),
    assignees: s.assigneeIds ?? old?.assignees ?? [],
    creator_id: pick(s.creatorId, old?.creator_id),
    read_at: s.read ? now : (old?.read_at ?? null),
    seen_at: now,
  };
}

/** A known task's row before and after a list of sightings (see, seeOpenList). */
export interface RowChange {
  before: Row;
  after: Row;
}

/**
 * Records `sightings` in order (a later one of the same task merges onto the earlier); returns
 * the row before and after of each task that was indexed before.
 */
export async function recordSightings(
  tx: Sql,
  teamId: string,
  sightings: readonly TaskSighting[],
  now: number,
): Promise<RowChange[]> {
  if (!sightings.length) return [];
  // Tasks not indexed yet get a placeholder row first (those with a project; the others are
  // ignored), so that the locked read below also covers a task another instance is adding
  // this moment: this one waits for that row and merges onto it instead of overwriting it.
  // Placeholders made here are new tasks.
  const projects = new Map<string, string>();
  for (const s of sightings) {
    if (s.projectId && !projects.has(s.taskId)) projects.set(s.taskId, s.projectId);
  }
  const newIds = [...projects.keys()].sort();
  const created = new Set(
    newIds.length
      ? (
          await tx.rows<{ task_id: string }>(
            `INSERT INTO task_index (team_id, task_id, project_id, name, words, seen_at)
             SELECT $1, v.id, v.project, '', ''::tsvector, $4
               FROM unnest($2::text[], $3::text[]) AS v(id, project) ORDER BY v.id
             ON CONFLICT DO NOTHING RETURNING task_id`,
            [teamId, newIds, newIds.map((id) => projects.get(id)), now],
          )
        ).map((r) => r.task_id)
      : [],
  );
  const ids = [...new Set(sightings.map((s) => s.taskId))].sort();
  const stored = await tx.rows<Row>(
    `SELECT ${ROW} FROM task_index WHERE team_id = $1 AND task_id = ANY($2::text[])
      ORDER BY task_id FOR UPDATE`,
    [teamId, ids],
  );
  const before = new Map(stored.filter((r) => !created.has(r.task_id)).map((r) => [r.task_id, r]));
  const rows = new Map<string, Row>();
  const rewrite = new Set<string>();
  for (const s of sightings) {
    const old = rows.get(s.taskId) ?? before.get(s.taskId);
    const row = merge(teamId, s, old, now);
    if (!row) continue;
    rows.set(s.taskId, row);
    // A new task's assignees are written even when the sighting names none (none, then).
    if (s.assigneeIds || !old) rewrite.add(s.taskId);
  }
  if (!rows.size) return [];
  const changes = [...before.values()].flatMap((b) => {
    const after = rows.get(b.task_id);
    return after ? [{ before: b, after }] : [];
  });
  const list = [...rows.values()].sort((a, b) => (a.task_id < b.task_id ? -1 : 1));
  const column = <K extends keyof Row>(key: K) => list.map((r) => r[key]);
  await tx.run(
    `INSERT INTO task_index (team_id, task_id, project_id, number, name, words, done, gone,
       status_name, due_date, priority, assignees, creator_id, read_at, seen_at)
     SELECT $1, v.task_id, v.project_id, v.number, v.name, ${wordsVector('v.words')},
       v.done, false, v.status_name, v.due_date, v.priority,
       ARRAY(SELECT jsonb_array_elements_text(v.assignees::jsonb)), v.creator_id, v.read_at,
       v.seen_at
       FROM unnest($2::text[], $3::text[], $4::int[], $5::text[], $6::text[], $7::bool[],
         $8::text[], $9::text[], $10::int[], $11::text[], $12::text[], $13::bigint[],
         $14::bigint[])
         AS v(task_id, project_id, number, name, words, done, status_name, due_date, priority,
           assignees, creator_id, read_at, seen_at)
     ON CONFLICT (team_id, task_id) DO UPDATE SET project_id = excluded.project_id,
       number = excluded.number, name = excluded.name, words = excluded.words,
       done = excluded.done, gone = false, status_name = excluded.status_name,
       due_date = excluded.due_date, priority = excluded.priority,
       assignees = excluded.assignees, creator_id = excluded.creator_id,
       read_at = excluded.read_at, seen_at = excluded.seen_at`,
    [
      teamId,
      column('task_id'),
      column('project_id'),
      column('number'),
      column('name'),
      list.map((r) => nameWords(r.name)),
      column('done'),
      column('status_name'),
      column('due_date'),
      column('priority'),
      list.map((r) => JSON.stringify(r.assignees)),
      column('creator_id'),
      column('read_at'),
      column('seen_at'),
    ],
  );
  const rewritten = [...rewrite].sort();
  if (!rewritten.length) return changes;
  await tx.run(
    'DELETE FROM task_index_assignees WHERE team_id = $1 AND task_id = ANY($2::text[])',
    [teamId, rewritten],
  );
  const pairs = rewritten.flatMap((taskId) =>
    rows.get(taskId)!.assignees.map((userId) => [taskId, userId] as const),
  );
  if (!pairs.length) return changes;
  await tx.run(
    `INSERT INTO task_index_assignees (team_id, task_id, user_id)
     SELECT $1, a.task_id, a.user_id FROM unnest($2::text[], $3::text[]) AS a(task_id, user_id)
     ON CONFLICT DO NOTHING`,
    [teamId, pairs.map((p) => p[0]), pairs.map((p) => p[1])],
  );
  return changes;
}
