/**
 * Group commit (src/service/group-commit.ts): writes of one turn of the event loop share one
 * SQLite transaction; none is visible to another connection, and no answer leaves, before
 * its commit; a write that throws leaves no trace while the others commit; a failed commit
 * fails every answer waiting on it. Then the same through HTTP: concurrent creates all land,
 * numbered without gaps, each with its event.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../src/service/db.js';
import { GroupCommit } from '../../src/service/group-commit.js';
import { newId } from '../../src/service/new-ids.js';
import { makeTempDir, raw, startTestService, type TestService } from './support.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Two connections to one fresh file: `db` writes through GroupCommit, `other` looks. */
function twoConnections(): { db: Db; other: Db } {
  const temp = makeTempDir();
  const path = join(temp.dir, 'service.db');
  const db = openDatabase(path);
  const other = openDatabase(path);
  db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE)');
  cleanups.push(() => {
    db.close();
    other.close();
    temp.remove();
  });
  return { db, other };
}

const notes = (db: Db) =>
  db
    .prepare('SELECT text FROM notes ORDER BY id')
    .all()
    .map((r) => (r as { text: string }).text);

/** Resolves once `commits` would answer: after the commit, or with its failure. */
const answered = (commits: GroupCommit) =>
  new Promise<string>((resolve) =>
    commits.whenCommitted(
      () => resolve('committed'),
      (e) => resolve(`failed: ${e instanceof Error ? e.message : String(e)}`),
    ),
  );

describe('GroupCommit', () => {
  it('commits the writes of one turn together, and answers only after the commit', async () => {
    const { db, other } = twoConnections();
    const commits = new GroupCommit(db);
    const insert = (text: string) =>
      commits.write(() => db.prepare('INSERT INTO notes (text) VALUES (?)').run(text));
    insert('one');
    insert('two');
    expect(commits.isOpen).toBe(true);
    expect(notes(other)).toEqual([]);
    const seenAtAnswer: string[][] = [];
    commits.whenCommitted(
      () => seenAtAnswer.push(notes(other)),
      () => {},
    );
    expect(seenAtAnswer).toEqual([]);
    expect(await answered(commits)).toBe('committed');
    expect(seenAtAnswer).toEqual([['one', 'two']]);
    expect(commits.isOpen).toBe(false);
    expect(db.inTransaction).toBe(false);
  });

  it('rolls back only the write that throws; the others commit', async () => {
    const { db, other } = twoConnections();
    const commits = new GroupCommit(db);
    const insert = db.prepare('INSERT INTO notes (text) VALUES (?)');
    commits.write(() => insert.run('kept'));
    expect(() =>
      commits.write(() => {
        insert.run('half-done');
        throw new Error('refused after a write');
      }),
    ).toThrow('refused after a write');
    // A constraint failure inside the shared transaction does not end it either.
    expect(() => commits.write(() => insert.run('kept'))).toThrow(/UNIQUE/);
    commits.write(() => insert.run('also kept'));
    expect(await answered(commits)).toBe('committed');
    expect(notes(other)).toEqual(['kept', 'also kept']);
  });

  it('fails every waiting answer when the commit fails, and keeps nothing', async () => {
    const { db, other } = twoConnections();
    db.exec('CREATE TABLE children (note INTEGER NOT NULL REFERENCES notes(id))');
    const events: string[] = [];
    const commits = new GroupCommit(db, () => events.push('woken'));
    commits.write(() => db.prepare('INSERT INTO notes (text) VALUES (?)').run('lost'));
    commits.eventRecorded();
    // A foreign key checked at COMMIT (deferred) makes the commit itself fail.
    db.pragma('defer_foreign_keys = ON');
    commits.write(() => db.prepare('INSERT INTO children (note) VALUES (42)').run());
    const first = answered(commits);
    const second = answered(commits);
    expect(await first).toMatch(/^failed: .*FOREIGN KEY/);
    expect(await second).toMatch(/^failed: .*FOREIGN KEY/);
    expect(db.inTransaction).toBe(false);
    expect(notes(other)).toEqual([]);
    expect(events).toEqual([]);
    // The next turn starts afresh.
    commits.write(() => db.prepare('INSERT INTO notes (text) VALUES (?)').run('next'));
    expect(await answered(commits)).toBe('committed');
    expect(notes(other)).toEqual(['next']);
  });

  it('wakes the delivery worker after a commit that holds an event, not before', async () => {
    const { db } = twoConnections();
    const events: boolean[] = [];
    const commits = new GroupCommit(db, () => events.push(db.inTransaction));
    commits.write(() => db.prepare('INSERT INTO notes (text) VALUES (?)').run('a'));
    commits.eventRecorded();
    expect(events).toEqual([]);
    await answered(commits);
    expect(events).toEqual([false]);
    commits.write(() => db.prepare('INSERT INTO notes (text) VALUES (?)').run('b'));
    await answered(commits);
    expect(events).toEqual([false]);
  });
});

describe('ids', () => {
  it('are 24 lowercase hex characters, each greater than the one before', () => {
    const ids = Array.from({ length: 1000 }, () => newId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{24}$/);
    for (let i = 1; i < ids.length; i++) expect(ids[i] > ids[i - 1]).toBe(true);
  });
});

describe('concurrent creates through HTTP', () => {
  let t: TestService;

  it('all land, numbered without gaps, each with its task.created event in order', async () => {
    t = await startTestService();
    cleanups.push(() => t.stop());
    const projectId = t.seed.projects[1].projectId;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        raw(`${t.service.baseUrl}/task`, {
          method: 'POST',
          apiKey: t.seed.apiKey,
          // Every fifth names an unknown assignee: refused, and leaves no trace.
          body: {
            projectId,
            name: `Concurrent ${i}`,
            taskUsers: i % 5 === 4 ? ['no-such-user-id'] : [t.seed.users[1].id],
          },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(
      Array.from({ length: 40 }, (_, i) => (i % 5 === 4 ? 400 : 201)),
    );
    const created = answers.filter((a) => a.status === 201).map((a) => a.json as TaskAnswer);
    const fresh = openDatabase(t.dbPath);
    cleanups.push(() => fresh.close());
    const rows = fresh
      .prepare('SELECT id, task_number FROM tasks WHERE project_id = ? ORDER BY task_number')
      .all(projectId) as { id: string; task_number: number }[];
    const mine = rows.filter((r) => created.some((c) => c.taskId === r.id));
    expect(mine).toHaveLength(32);
    const numbers = mine.map((r) => r.task_number);
    expect(numbers).toEqual(Array.from({ length: 32 }, (_, i) => numbers[0] + i));
    const events = fresh
      .prepare("SELECT payload FROM events WHERE type = 'task.created' ORDER BY seq")
      .all()
      .map((r) => (JSON.parse((r as { payload: string }).payload) as { task: TaskAnswer }).task);
    expect(events.slice(-32).map((e) => e.taskNumber)).toEqual(numbers);
    for (const c of created) {
      expect(events.find((e) => e.taskId === c.taskId)).toEqual(c);
    }
  });
});

interface TaskAnswer {
  taskId: string;
  taskNumber: number;
}
