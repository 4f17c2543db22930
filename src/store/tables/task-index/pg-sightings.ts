/**
 * Recording task sightings in the PostgreSQL task index: the merge rules of sqlite.ts
 * (absent fields kept, null clears, a new done flag drops a stale status name, assignees
 * replaced when given), for a whole list in ONE statement without a transaction — a list read
 * of hundreds of tasks is one round trip, not seven (lock, placeholders, upsert, assignees'
 * rewrite, BEGIN/COMMIT). The rows are locked in task id order, so two instances recording
 * overlapping lists cannot deadlock and neither loses the other's fields, also for a task
 * both see first.
 */

import { named, type Sql } from '../../pg/db.js';
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

/** A known task's row before and after a list of sightings (see, seeOpenList). */
export interface RowChange {
  before: Row;
  after: Row;
}

// What one sighting tells, as the statement's arrays: $3 task, $4 project, $5 number and
// $6 whether told, $7 name, $8 its words, $9 done, $10 status name and $11 whether told,
// $12 due date and $13 whether told, $14 priority and $15 whether told, $16 assignees (JSON,
// null: not told), $17 creator, $18 a whole read. $1 team, $2 now.
const SIGHTINGS = `unnest($3::text[], $4::text[], $5::int[], $6::bool[], $7::text[], $8::text[],
    $9::bool[], $10::text[], $11::bool[], $12::text[], $13::bool[], $14::int[], $15::bool[],
    $16::text[], $17::text[], $18::bool[])
  AS v(task_id, project_id, number, number_told, name, words, done, status_name, status_told,
    due_date, due_told, priority, priority_told, assignees, creator_id, read)`;

const assigneesOf = (json: string) => `ARRAY(SELECT jsonb_array_elements_text(${json}::jsonb))`;

/**
 * Records the sightings (one per task) in ONE statement, no transaction. Known tasks are
 * locked in task id order and merged in SQL — absent fields kept, null clears, a new done
 * flag drops a stale status name, assignees replaced when told — with their rows before and
 * after returned (the lock makes "before" the row this merge changed: two instances recording
 * one task take turns and neither loses the other's fields). Tasks not indexed yet (with a
 * project) are inserted after every lock is taken; one another instance inserted meanwhile is
 * left to the caller, which records it again (now known). task_index_assignees follows by a
 * trigger (schema change 2026-11-24-assignees-trigger).
 */
const RECORD = `WITH v AS (SELECT * FROM ${SIGHTINGS}),
  old AS (
    SELECT ${COLUMNS.map((c) => `t.${c}`).join(', ')} FROM task_index t
     WHERE t.team_id = $1 AND t.task_id IN (SELECT task_id FROM v)
     ORDER BY t.task_id FOR UPDATE),
  upd AS (
    UPDATE task_index t SET
      project_id = coalesce(v.project_id, t.project_id),
      number = CASE WHEN v.number_told THEN v.number ELSE t.number END,
      name = coalesce(v.name, t.name),
      words = CASE WHEN v.name IS NULL THEN t.words ELSE ${wordsVector('v.words')} END,
      done = coalesce(v.done, t.done),
      gone = false,
      status_name = CASE WHEN v.status_told THEN v.status_name
                         WHEN v.done IS NOT NULL AND v.done <> t.done THEN NULL
                         ELSE t.status_name END,
      due_date = CASE WHEN v.due_told THEN v.due_date ELSE t.due_date END,
      priority = CASE WHEN v.priority_told THEN v.priority ELSE t.priority END,
      assignees = CASE WHEN v.assignees IS NULL THEN t.assignees
                       ELSE ${assigneesOf('v.assignees')} END,
      creator_id = coalesce(v.creator_id, t.creator_id),
      read_at = CASE WHEN v.read THEN $2 ELSE t.read_at END,
      seen_at = $2
      FROM v, old
     WHERE t.team_id = $1 AND t.task_id = v.task_id AND old.task_id = v.task_id
    RETURNING jsonb_build_object(${COLUMNS.map((c) => `'${c}', old.${c}`).join(', ')}) AS before,
      ${COLUMNS.map((c) => `t.${c}`).join(', ')}),
  ins AS (
    INSERT INTO task_index (team_id, task_id, project_id, number, name, words, done, gone,
      status_name, due_date, priority, assignees, creator_id, read_at, seen_at)
    SELECT $1, v.task_id, v.project_id, v.number, coalesce(v.name, ''),
      ${wordsVector("coalesce(v.words, '')")}, coalesce(v.done, false), false, v.status_name,
      v.due_date, v.priority,
      CASE WHEN v.assignees IS NULL THEN '{}' ELSE ${assigneesOf('v.assignees')} END,
      v.creator_id, CASE WHEN v.read THEN $2 END, $2
      FROM v
     WHERE v.project_id IS NOT NULL
       -- Every known task is locked first (the whole of old, before any insert): then two
       -- instances recording overlapping lists never wait for each other in a circle.
       AND v.task_id <> ALL (ARRAY(SELECT task_id FROM old))
     ORDER BY v.task_id
    ON CONFLICT DO NOTHING RETURNING task_id)
SELECT upd.*, ARRAY(SELECT task_id FROM ins) AS inserted
  FROM (SELECT 1) one LEFT JOIN upd ON true`;

/** A row of RECORD's answer: a known task before and after (null: none), the tasks inserted. */
type Answer = { [K in keyof Row]: Row[K] | null } & { before: Row | null; inserted: string[] };

function afterOf(a: Answer): Row | undefined {
  const { team_id, task_id, project_id, seen_at } = a;
  if (team_id === null || task_id === null || project_id === null || seen_at === null) {
    return undefined;
  }
  return {
    team_id,
    task_id,
    project_id,
    number: a.number,
    name: a.name ?? '',
    done: a.done ?? false,
    gone: a.gone ?? false,
    status_name: a.status_name,
    due_date: a.due_date,
    priority: a.priority,
    assignees: a.assignees ?? [],
    creator_id: a.creator_id,
    read_at: a.read_at,
    seen_at,
  };
}

/** One statement for sightings of distinct tasks; the known tasks' changes and what it left. */
async function recordOnce(
  sql: Sql,
  teamId: string,
  list: readonly TaskSighting[],
  now: number,
): Promise<{ changes: RowChange[]; left: TaskSighting[] }> {
  const told = <T>(v: T | null | undefined) => v !== undefined;
  const answers = await sql.rows<Answer>(RECORD_STATEMENT, [
    teamId,
    now,
    list.map((s) => s.taskId),
    list.map((s) => s.projectId || null),
    list.map((s) => s.number ?? null),
    list.map((s) => told(s.number)),
    list.map((s) => s.name ?? null),
    list.map((s) => (s.name === undefined ? null : nameWords(s.name))),
    list.map((s) => s.done ?? null),
    list.map((s) => s.statusName ?? null),
    list.map((s) => told(s.statusName)),
    list.map((s) => (s.dueDate === undefined ? null : (indexDate(s.dueDate) ?? null))),
    list.map((s) => told(s.dueDate)),
    list.map((s) => s.priority ?? null),
    list.map((s) => told(s.priority)),
    list.map((s) => (s.assigneeIds ? JSON.stringify(s.assigneeIds) : null)),
    list.map((s) => s.creatorId ?? null),
    list.map((s) => s.read === true),
  ]);
  const changes: RowChange[] = [];
  const done = new Set<string>(answers[0]?.inserted ?? []);
  for (const a of answers) {
    const before = a.before;
    const after = afterOf(a);
    if (!before || !after) continue;
    changes.push({ before, after });
    done.add(after.task_id);
  }
  // A new task another instance inserted after this statement began: record it again.
  const left = list.filter((s) => s.projectId && !done.has(s.taskId));
  return { changes, left };
}

const RECORD_STATEMENT = named('task-index-record', RECORD);

/**
 * Records `sightings` in order (a later one of the same task merges onto the earlier, in a
 * statement of its own); returns the row before and after of each task indexed before — one
 * statement for a list of distinct tasks, the common case.
 */
export async function recordSightings(
  sql: Sql,
  teamId: string,
  sightings: readonly TaskSighting[],
  now: number,
): Promise<RowChange[]> {
  // Rounds of distinct tasks: the n-th sighting of each task goes in the n-th round.
  const rounds: TaskSighting[][] = [];
  const seen = new Map<string, number>();
  for (const s of sightings) {
    const n = seen.get(s.taskId) ?? 0;
    seen.set(s.taskId, n + 1);
    const round = rounds[n] ?? [];
    round.push(s);
    rounds[n] = round;
  }
  const changes = new Map<string, RowChange>();
  for (const round of rounds) {
    let list: readonly TaskSighting[] = [...round].sort((a, b) =>
      a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0,
    );
    for (let tries = 0; list.length > 0; tries++) {
      if (tries >= 3) throw new Error('The task index kept changing under this sighting.');
      const once = await recordOnce(sql, teamId, list, now);
      for (const c of once.changes) {
        // Over several rounds: the row before the first, after the last.
        const was = changes.get(c.after.task_id);
        changes.set(c.after.task_id, { before: was?.before ?? c.before, after: c.after });
      }
      list = once.left;
    }
  }
  return [...changes.values()];
}
