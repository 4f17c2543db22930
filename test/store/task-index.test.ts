/**
 * The task index table on both engines: word search (prefixes, any order, accents and
 * punctuation as FTS5 reads them: PostgreSQL's full-text search must find the same tasks),
 * numbers, my tasks, open-list reads, refresh order, counts.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { storeEngines } from '../support/store-engines.js';

const T = 'T_SEARCH';
const id = (c: string) => c.repeat(24);

for (const engine of storeEngines()) {
  describe(engine.name, () => {
    let store: Store;
    const index = () => store.taskIndex;
    const names = async (words: string, options = {}) =>
      (await index().search(T, words, options)).map((t) => t.name);
    beforeEach(async () => {
      store = await (await engine.fresh()).open();
      await index().recordMany(T, [
        { taskId: id('a'), projectId: 'p1', name: 'Fix the login page', number: 1 },
        { taskId: id('b'), projectId: 'p1', name: 'Login button is blue', number: 2 },
        { taskId: id('c'), projectId: 'p2', name: 'Café menu', number: 1, done: true },
        {
          taskId: id('d'),
          projectId: 'p2',
          name: 'Update foo.bar v1.2 for ops@acme.io',
          number: 2,
        },
        { taskId: id('e'), projectId: 'p2', name: 'Straße über Nacht', number: 3 },
      ]);
    });

    it('finds every task whose name has all the words, as prefixes, in any order', async () => {
      expect((await names('log')).sort()).toEqual(['Fix the login page', 'Login button is blue']);
      expect(await names('page fix')).toEqual(['Fix the login page']);
      expect(await names('LOGIN fi')).toEqual(['Fix the login page']);
      expect(await names('login blue fix')).toEqual([]);
      expect(await names('xyz')).toEqual([]);
      // Another team's index is another index.
      expect(await index().search('T_OTHER', 'login')).toEqual([]);
    });

    it('reads accents, case and punctuation the same way on both engines', async () => {
      expect(await names('cafe')).toEqual(['Café menu']);
      expect(await names('CAFÉ')).toEqual(['Café menu']);
      expect(await names('uber nacht')).toEqual(['Straße über Nacht']);
      // Parts of dotted words, versions and e-mail addresses are words of their own.
      expect(await names('bar')).toEqual(['Update foo.bar v1.2 for ops@acme.io']);
      expect(await names('acme v1')).toEqual(['Update foo.bar v1.2 for ops@acme.io']);
      expect(await names('foo.bar')).toEqual(['Update foo.bar v1.2 for ops@acme.io']);
    });

    it('puts open tasks first, can leave done ones out, and narrows to a project', async () => {
      await index().record(T, { taskId: id('f'), projectId: 'p2', name: 'Menu photos', number: 4 });
      expect(await names('menu')).toEqual(['Menu photos', 'Café menu']);
      expect(await names('menu', { openOnly: true })).toEqual(['Menu photos']);
      expect(await names('login', { projectId: 'p2' })).toEqual([]);
      expect(await names('log', { limit: 1 })).toHaveLength(1);
    });

    it('treats query syntax as plain words and ignores input without words', async () => {
      for (const junk of ['"', '*', 'NEAR(', 'login OR', '-', '', "'", ':*', '&|!', '\\']) {
        await expect(index().search(T, junk)).resolves.toBeInstanceOf(Array);
      }
      expect(await names('login & !fix')).toEqual(['Fix the login page']);
      expect(await names("fix' | 'blue")).toEqual([]);
    });

    it('finds similar open tasks of a project by any shared word, best first', async () => {
      expect((await index().similar(T, 'p1', 'Fix login form')).map((x) => x.number)).toEqual([
        1, 2,
      ]);
      expect(await index().similar(T, 'p1', 'a to')).toEqual([]);
      expect(await index().similar(T, 'p2', 'Café')).toEqual([]);
    });

    it('merges sightings: absent fields kept, null clears, a new done flag drops the status', async () => {
      await index().record(
        T,
        {
          taskId: id('a'),
          statusName: 'In review',
          dueDate: '2026-03-01T10:00:00Z',
          priority: 2,
          assigneeIds: ['u1', 'u2'],
          read: true,
        },
        1_000,
      );
      expect(await index().get(T, id('a'))).toMatchObject({
        projectId: 'p1',
        name: 'Fix the login page',
        number: 1,
        statusName: 'In review',
        dueDate: '2026-03-01',
        priority: 2,
        assigneeIds: ['u1', 'u2'],
        readAt: 1_000,
        seenAt: 1_000,
      });
      await index().record(T, { taskId: id('a'), dueDate: null, done: true }, 2_000);
      const after = await index().get(T, id('a'));
      expect(after).toMatchObject({ done: true, readAt: 1_000, seenAt: 2_000 });
      expect(after?.dueDate).toBeUndefined();
      expect(after?.statusName).toBeUndefined();
      // Without a project (never seen before) a sighting is ignored.
      await index().record(T, { taskId: id('z'), name: 'Nowhere' });
      expect(await index().get(T, id('z'))).toBeUndefined();
      // A renamed task is found by its new words only.
      await index().record(T, { taskId: id('b'), name: 'Sign-up button' });
      expect(await names('blue')).toEqual([]);
      expect(await names('sign up')).toEqual(['Sign-up button']);
    });

    it('finds a task by number, its assignees’ open tasks, and who has any', async () => {
      expect((await index().byNumber(T, 'p2', 1))?.name).toBe('Café menu');
      expect(await index().byNumber(T, 'p2', 9)).toBeUndefined();
      await index().record(T, { taskId: id('a'), assigneeIds: ['u1'] });
      await index().record(T, { taskId: id('b'), assigneeIds: ['u1', 'u2'] });
      await index().record(T, { taskId: id('c'), assigneeIds: ['u3'] });
      expect((await index().assignedTo(T, 'u1')).map((t) => t.number).sort()).toEqual([1, 2]);
      // Done tasks are not "my tasks".
      expect(await index().assignedTo(T, 'u3')).toEqual([]);
      expect((await index().assigneesWithOpenTasks(T)).sort()).toEqual(['u1', 'u2']);
      await index().markGone(T, id('b'));
      expect((await index().assignedTo(T, 'u1')).map((t) => t.number)).toEqual([1]);
      expect(await index().byNumber(T, 'p1', 2)).toBeUndefined();
    });

    it('takes a whole open list: listed tasks open and named, missing ones closed', async () => {
      await index().record(T, { taskId: id('a'), statusName: 'Doing' });
      await index().record(T, { taskId: id('c'), statusName: 'Done' });
      const closed = await index().sawOpenList(
        T,
        'p2',
        [
          { taskId: id('c'), number: 1 },
          { taskId: id('e'), taskName: 'Straße bei Nacht' },
          { taskId: id('g'), taskName: 'New from the list', number: 7 },
        ],
        5_000,
      );
      // 'd' was open in p2 and is not listed.
      expect(closed).toBe(1);
      expect(await index().get(T, id('d'))).toMatchObject({ done: true, seenAt: 5_000 });
      // Reopened: its old status name no longer holds; its name is kept.
      const reopened = await index().get(T, id('c'));
      expect(reopened).toMatchObject({ done: false, name: 'Café menu', number: 1 });
      expect(reopened?.statusName).toBeUndefined();
      expect(await index().get(T, id('e'))).toMatchObject({ name: 'Straße bei Nacht', number: 3 });
      expect(await names('bei')).toEqual(['Straße bei Nacht']);
      expect(await index().get(T, id('g'))).toMatchObject({
        projectId: 'p2',
        number: 7,
        done: false,
        assigneeIds: [],
        seenAt: 5_000,
      });
      // Another project's open task is untouched.
      expect((await index().get(T, id('a')))?.statusName).toBe('Doing');
      expect(await index().count(T)).toEqual({ open: 5, done: 1, gone: 0 });
    });

    it('tells what a sighting changed in a known task, once; new tasks and no-ops tell nothing', async () => {
      // A new task is the baseline.
      expect(
        await index().see(T, { taskId: id('n'), projectId: 'p1', name: 'New' }),
      ).toBeUndefined();
      // Same values again: nothing.
      expect(await index().see(T, { taskId: id('a'), name: 'Fix the login page' })).toBeUndefined();
      const change = await index().see(T, {
        taskId: id('a'),
        done: true,
        dueDate: '2026-12-01T00:00:00.000Z',
        assigneeIds: ['u2'],
        read: true,
      });
      expect(change?.before).toMatchObject({ done: false, assigneeIds: [] });
      expect(change?.after).toMatchObject({
        done: true,
        dueDate: '2026-12-01',
        assigneeIds: ['u2'],
      });
      // Seen again by another reader: already known, nothing to tell.
      expect(
        await index().see(T, { taskId: id('a'), done: true, assigneeIds: ['u2'] }),
      ).toBeUndefined();
      // Assignees in another order are the same people.
      await index().see(T, { taskId: id('b'), assigneeIds: ['u1', 'u2'] });
      expect(await index().see(T, { taskId: id('b'), assigneeIds: ['u2', 'u1'] })).toBeUndefined();
      // An open list: a rename and a reopening told, a missing task closed (not a change).
      const list = await index().seeOpenList(T, 'p2', [
        { taskId: id('c'), taskName: 'Café menu' },
        { taskId: id('d'), taskName: 'Update foo.bar v2' },
      ]);
      expect(list.closed.map((t) => [t.taskId, t.done])).toEqual([[id('e'), false]]);
      expect(
        list.changed
          .map((c) => [c.after.taskId, c.before.name, c.after.name, c.before.done, c.after.done])
          .sort(),
      ).toEqual([
        [id('c'), 'Café menu', 'Café menu', true, false],
        [id('d'), 'Update foo.bar v1.2 for ops@acme.io', 'Update foo.bar v2', false, false],
      ]);
      expect((await index().seeOpenList(T, 'p2', [])).changed).toEqual([]);
    });

    it('re-reads the stalest open tasks first and forgets a team whole', async () => {
      await index().record(T, { taskId: id('a'), read: true }, 3_000);
      await index().record(T, { taskId: id('b'), read: true }, 2_000);
      const order = (await index().stalest(T, 10)).map((t) => t.taskId);
      // Never read first (by when seen), then the one read longest ago.
      expect(order.slice(-2)).toEqual([id('b'), id('a')]);
      expect(order).not.toContain(id('c'));
      // Several by id in one query, done ones too; unknown ids are left out.
      const many = await index().getMany(T, [id('a'), id('c'), id('zz')]);
      expect(many.map((t) => [t.taskId, t.done]).sort()).toEqual([
        [id('a'), false],
        [id('c'), true],
      ]);
      expect(await index().getMany(T, [])).toEqual([]);
      await index().record(T, { taskId: id('a'), assigneeIds: ['u1'] });
      expect(await index().deleteTeam(T)).toBe(5);
      expect(await index().count(T)).toEqual({ open: 0, done: 0, gone: 0 });
      expect(await index().assigneesWithOpenTasks(T)).toEqual([]);
    });
  });
}
