/**
 * Create task builds its answer from the values it writes (src/service/task-create.ts), not by
 * reading the task back. For varied tasks — assignees (the creator among them, repeats),
 * groups, statuses, priorities from the body and from the project's default, estimates,
 * milestones, dates, files, text with escapes and invalid Unicode — the answer is exactly the
 * text a read of the stored task gives over another connection, and the task.created event
 * carries the same task.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openDatabase } from '../../src/service/db.js';
import { readTaskJson } from '../../src/service/task-reads.js';
import { raw, startTestService, type TestService } from './support.js';

let t: TestService;

beforeAll(async () => {
  t = await startTestService();
});

afterAll(async () => {
  await t.stop();
});

const created = z.object({ taskId: z.string() });
const event = z.object({ type: z.string(), task: z.object({ taskId: z.string() }).loose() });
const idRow = z.object({ id: z.string() });

/** Reads over a connection of its own (so nothing of the running service's is reused). */
function fresh<T>(read: (db: ReturnType<typeof openDatabase>) => T): T {
  const db = openDatabase(t.dbPath);
  try {
    return read(db);
  } finally {
    db.close();
  }
}

function statusId(projectId: string, type: number): string {
  return fresh((db) =>
    idRow.parse(
      db
        .prepare('SELECT id FROM statuses WHERE project_id = ? AND type = ? ORDER BY position')
        .get(projectId, type),
    ),
  ).id;
}

async function create(body: Record<string, unknown>): Promise<{ id: string; text: string }> {
  const answer = await raw(`${t.service.baseUrl}/task`, {
    method: 'POST',
    apiKey: t.seed.apiKey,
    body,
  });
  expect(answer.status, answer.text).toBe(201);
  return { id: created.parse(answer.json).taskId, text: answer.text };
}

describe('create task answer', () => {
  it('is the text a read of the stored task gives, and the event carries it', async () => {
    const [alice, bob, carol, dan] = t.seed.users;
    const project = t.seed.projects[0];
    const other = t.seed.projects[1];
    // A project whose tasks take their priority from its default.
    const put = await raw(`${t.service.baseUrl}/project/${other.projectId}`, {
      method: 'PUT',
      apiKey: t.seed.apiKey,
      body: { defaultPriority: 'High' },
    });
    expect(put.status, put.text).toBe(200);
    const bodies: Record<string, unknown>[] = [
      { projectId: project.projectId, name: 'Only a name' },
      { projectId: project.projectId, taskName: 'Named the hosted way' },
      { projectId: project.projectId, name: 'Two assignees', taskUsers: [bob.id, carol.id] },
      {
        projectId: project.projectId,
        name: 'Creator assigned, repeats',
        taskUsers: [carol.id, alice.id, carol.id, dan.id],
      },
      {
        projectId: project.projectId,
        name: 'Everything',
        description: 'Quotes " and \\ backslash,\nnew line,\ttab, \u0001 control, \u2028 and 🎉',
        groupId: project.groups[1].groupId,
        statusId: statusId(project.projectId, 3),
        priority: 4,
        dueDate: '2026-12-24',
        estimateTime: 8,
        milestoneId: 3,
        taskUsers: [dan.id],
        files: [{ fileType: 'pdf', href: 'https://example.com/a.pdf', name: 'A', size: 2048 }],
      },
      {
        projectId: project.projectId,
        name: 'Lone \ud800 surrogate and a pair 😀',
        description: 'trailing \udc00',
        statusId: statusId(project.projectId, 2),
        priority: 0,
      },
      { projectId: other.projectId, name: 'Default priority', taskUsers: [] },
      { projectId: other.projectId, name: '' },
    ];
    const texts: string[] = [];
    for (const body of bodies) {
      const { id, text } = await create(body);
      texts.push(text);
      const step = JSON.stringify(body);
      expect(text, step).toBe(fresh((db) => readTaskJson(db, t.seed.workspaceId, id)));
      const payload = fresh((db) =>
        z
          .object({ payload: z.string() })
          .parse(
            db
              .prepare("SELECT payload FROM events WHERE type = 'task.created' ORDER BY seq DESC")
              .get(),
          ),
      ).payload;
      const recorded = event.parse(JSON.parse(payload));
      expect(recorded.task, step).toEqual(JSON.parse(text));
    }
    // Spot checks that the cases reached what they were meant to.
    const tasks = texts.map((text) => JSON.parse(text));
    expect(tasks[3].subscribers).toEqual([alice.id, carol.id, dan.id]);
    expect(tasks[3].taskUsers).toEqual(
      [carol.id, alice.id, dan.id].map((taskUserId) => ({ taskUserId })),
    );
    expect(tasks[4]).toMatchObject({
      status: true,
      group: project.groups[1].groupName,
      priority: '4',
    });
    expect(tasks[5].taskName).toBe('Lone \uFFFD surrogate and a pair 😀');
    expect(tasks[5].description).toBe('trailing \uFFFD');
    expect(tasks[6].priority).toBe('2');
  });
});
