/**
 * Group commit (src/service/group-commit.ts): writes of one turn of the event loop are queued
 * and run together at its end in one SQLite transaction; none is visible to another
 * connection, and no answer leaves, before its commit; a write that throws leaves no trace
 * while the others commit; a failed commit fails every answer waiting on it. Then the same through HTTP: concurrent creates all land,
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

/** Resolves once `commits` would answer a read: after the commit, or with its failure. */
const answered = (commits: GroupCommit) =>
  new Promise<string>((resolve) =>
    commits.whenCommitted(
      () => resolve('committed'),
      (e) => resolve(`failed: ${message(e)}`),
    ),
  );

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Queues `run` as a write; resolves with what its answer would say. */
const queue = <T>(commits: GroupCommit, run: () => T) =>
  new Promise<string>((resolve) =>
    commits.write(
      run,
      (result) => resolve(`done: ${String(result)}`),
      (e) => resolve(`failed: ${message(e)}`),
    ),
  );

describe('GroupCommit', () => {
  it('runs the writes of one turn together at its end, and answers only after the commit', async () => {
    const { db, other } = twoConnections();
    const commits = new GroupCommit(db);
    const seenAtAnswer: string[][] = [];
    const insert = (text: string) =>
      new Promise<void>((resolve) =>
        commits.write(
          () => db.prepare('INSERT INTO notes (text) VALUES (?)').run(text),
          () => {
            seenAtAnswer.push(notes(other));
            resolve();
          },
          () => resolve(),
        ),
      );
    const one = insert('one');
    const two = insert('two');
    // Queued, not run yet: nothing written, no transaction open, a read waits.
    expect(commits.isPending).toBe(true);
    expect(db.inTransaction).toBe(false);
    expect(notes(db)).toEqual([]);
    const read = answered(commits);
    let readSaw: string[] = [];
    commits.whenCommitted(
      () => {
        readSaw = notes(db);
      },
      () => {},
    );
    await Promise.all([one, two]);
    // Each answer left after the commit: the other connection already saw both rows.
    expect(seenAtAnswer).toEqual([
      ['one', 'two'],
      ['one', 'two'],
    ]);
    expect(await read).toBe('committed');
    // A read that came after the writes in the same turn sees them.
    expect(readSaw).toEqual(['one', 'two']);
    expect(commits.isPending).toBe(false);
    expect(db.inTransaction).toBe(false);
  });

  it('rolls back only the write that throws; the others commit', async () => {
    const { db, other } = twoConnections();
    const commits = new GroupCommit(db);
    const insert = db.prepare('INSERT INTO notes (text) VALUES (?)');
    const answers = await Promise.all([
      queue(commits, () => insert.run('kept').changes),
      queue(commits, () => {
        insert.run('half-done');
        throw new Error('refused after a write');
      }),
      // A constraint failure inside the shared transaction does not end it either.
      queue(commits, () => insert.run('kept').changes),
      queue(commits, () => insert.run('also kept').changes),
    ]);
    expect(answers).toEqual([
      'done: 1',
      'failed: refused after a write',
      expect.stringMatching(/^failed: UNIQUE/),
      'done: 1',
    ]);
    expect(notes(other)).toEqual(['kept', 'also kept']);
  });

  it('fails every waiting answer when the commit fails, and keeps nothing', async () => {
    const { db, other } = twoConnections();
    db.exec('CREATE TABLE children (note INTEGER NOT NULL REFERENCES notes(id))');
    const events: string[] = [];
    const commits = new GroupCommit(db, () => events.push('woken'));
    const lost = queue(commits, () => {
      commits.eventRecorded();
      return db.prepare('INSERT INTO notes (text) VALUES (?)').run('lost').changes;
    });
    // A foreign key checked at COMMIT (deferred) makes the commit itself fail.
    const child = queue(commits, () => {
      db.pragma('defer_foreign_keys = ON');
      return db.prepare('INSERT INTO children (note) VALUES (42)').run().changes;
    });
    const read = answered(commits);
    expect(await lost).toMatch(/^failed: .*FOREIGN KEY/);
    expect(await child).toMatch(/^failed: .*FOREIGN KEY/);
    expect(await read).toMatch(/^failed: .*FOREIGN KEY/);
    expect(db.inTransaction).toBe(false);
    expect(notes(other)).toEqual([]);
    expect(events).toEqual([]);
    // The next turn starts afresh.
    expect(
      await queue(
        commits,
        () => db.prepare('INSERT INTO notes (text) VALUES (?)').run('next').changes,
      ),
    ).toBe('done: 1');
    expect(notes(other)).toEqual(['next']);
  });

  it('wakes the delivery worker after a commit that holds an event, not before', async () => {
    const { db } = twoConnections();
    const events: boolean[] = [];
    const commits = new GroupCommit(db, () => events.push(db.inTransaction));
    const first = queue(commits, () => {
      commits.eventRecorded();
      return db.prepare('INSERT INTO notes (text) VALUES (?)').run('a').changes;
    });
    expect(events).toEqual([]);
    await first;
    expect(events).toEqual([false]);
    await queue(commits, () => db.prepare('INSERT INTO notes (text) VALUES (?)').run('b').changes);
    expect(events).toEqual([false]);
  });

  it('sends the other answers when one of them throws', async () => {
    const { db } = twoConnections();
    const commits = new GroupCommit(db);
    const outcomes: string[] = [];
    const settled = new Promise<void>((resolve) => {
      commits.write(
        () => 1,
        () => {
          throw new Error('the socket is gone');
        },
        (e) => outcomes.push(`first failed: ${message(e)}`),
      );
      commits.write(
        () => 2,
        (n) => {
          outcomes.push(`second done: ${n}`);
          resolve();
        },
        () => resolve(),
      );
    });
    await settled;
    expect(outcomes).toEqual(['first failed: the socket is gone', 'second done: 2']);
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
