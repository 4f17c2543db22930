/**
 * Garbage in, 400 out, nothing changed. fast-check throws generated bad requests at every
 * write endpoint of the embedded service over raw HTTP: bad JSON text, JSON that is not an
 * object, unknown fields, wrong types, out-of-range values, huge and odd unicode strings,
 * nested junk, references to nothing, and well-formed bodies sent with a wrong content type.
 * Each request carries at least one certain fault, so the answer must be 400 `{error}`, and
 * the database fingerprint (row counts + SHA-256 of every table) must not move.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCalendarDate, PRIORITY_NAMES, strictResponses } from '../../src/workapi/contract.js';
import {
  databaseFingerprint,
  raw,
  startTestService,
  type TestService,
} from '../service/support.js';

const NUM_RUNS = 100;

let t: TestService;
let taskId: string;

beforeAll(async () => {
  t = await startTestService();
  const task = await raw(`${t.service.baseUrl}/task`, {
    apiKey: t.seed.apiKey,
    body: { projectId: t.seed.projects[0].projectId, name: 'Fuzz target' },
  });
  taskId = (task.json as { taskId: string }).taskId;
});

afterAll(async () => {
  await t?.stop();
});

// ── Field kinds and their wrong values ───────────────────────────────────────

type Kind =
  | { kind: 'id' }
  | { kind: 'text'; max: number; nonEmpty?: boolean }
  | { kind: 'date' }
  | { kind: 'priority' }
  | { kind: 'count' }
  | { kind: 'ids' }
  | { kind: 'files' }
  | { kind: 'bool' }
  | { kind: 'priorityName' };

// JSON values only: an `undefined` would vanish in JSON.stringify and hide the fault.
const junk = fc.jsonValue({ maxDepth: 4 });
const notString = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.array(junk, { maxLength: 5 }),
  fc.dictionary(fc.string(), junk, { maxKeys: 5 }),
);
const notNumber = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.string({ maxLength: 10 }),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string(), junk, { maxKeys: 3 }),
);
const notBoolean = fc.oneof(
  fc.constant(null),
  fc.constantFrom('true', 'false', 1, 0, 'yes'),
  fc.integer(),
  fc.array(fc.boolean(), { maxLength: 2 }),
  fc.dictionary(fc.string(), junk, { maxKeys: 3 }),
);
const hex = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: min, maxLength: max });
const unicode = (min: number, max: number) =>
  fc.string({ unit: 'binary', minLength: min, maxLength: max });
/** Longer than `max` code points (how zod measures), in odd characters, under 1 MiB. */
const tooLong = (max: number) =>
  fc
    .tuple(unicode(1, 8), fc.integer({ min: max + 1, max: Math.max(max * 2, max + 50) }))
    .map(([s, n]) => {
      const points = [...s];
      return Array.from({ length: n }, (_, i) => points[i % points.length]).join('');
    });
const badDate = fc.oneof(
  fc.string({ maxLength: 12 }).filter((s) => !isCalendarDate(s)),
  fc.constantFrom('2026-02-30', '2026-13-01', '2025-02-29', '2026-00-10', '26-01-01', '2026-1-1'),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
);

function wrongValue(k: Kind): fc.Arbitrary<unknown> {
  switch (k.kind) {
    case 'id':
      return fc.oneof(notString, fc.constant(''), tooLong(100));
    case 'text':
      return k.nonEmpty
        ? fc.oneof(notString, tooLong(k.max), fc.constantFrom('', ' ', '\n\t  '))
        : fc.oneof(notString, tooLong(k.max));
    case 'date':
      return fc.oneof(notString, badDate);
    case 'priority':
      return fc.oneof(
        notNumber,
        fc.integer().filter((n) => n < 0 || n > 4),
        fc.double({ min: 0.01, max: 3.99, noNaN: true }).filter((n) => !Number.isInteger(n)),
        fc.constantFrom('2', 'High'),
      );
    case 'count':
      return fc.oneof(
        notNumber,
        fc.integer({ max: -1 }),
        fc.integer({ min: 1_000_001 }),
        fc.double({ min: 0.01, max: 100, noNaN: true }).filter((n) => !Number.isInteger(n)),
      );
    case 'ids':
      return fc.oneof(
        notString.filter((v) => !Array.isArray(v)),
        fc.array(notString, { minLength: 1, maxLength: 4 }),
        fc.array(hex(1, 24), { minLength: 101, maxLength: 120 }),
      );
    case 'files':
      return fc.oneof(
        notString.filter((v) => !Array.isArray(v)),
        fc.array(
          fc.oneof(
            notString,
            fc.record({
              fileType: fc.string(),
              href: fc.string(),
              name: fc.string(),
              size: fc.string(),
            }),
            fc.record({ fileType: fc.string(), href: fc.webUrl(), name: fc.string() }),
          ),
          { minLength: 1, maxLength: 3 },
        ),
      );
    case 'bool':
      return notBoolean;
    case 'priorityName':
      return fc.oneof(
        notString,
        fc.string().filter((s) => !(PRIORITY_NAMES as readonly string[]).includes(s)),
      );
  }
}

// ── Endpoints ────────────────────────────────────────────────────────────────

const validDate = fc
  .date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const hexId = hex(24, 24);

interface Endpoint {
  name: string;
  method: 'POST' | 'PUT';
  url: () => string;
  fields: Record<string, Kind>;
  required: string[];
  /** Well-formed fields to mix with the fault (the fault alone must make the answer 400). */
  valid: () => fc.Arbitrary<Record<string, unknown>>;
  /** Faults that pass the schema but must fail the service's own checks. */
  semantic: () => fc.Arbitrary<Record<string, unknown>>;
}

const taskFields: Record<string, Kind> = {
  projectId: { kind: 'id' },
  name: { kind: 'text', max: 500 },
  description: { kind: 'text', max: 20_000 },
  priority: { kind: 'priority' },
  dueDate: { kind: 'date' },
  groupId: { kind: 'id' },
  taskUsers: { kind: 'ids' },
  files: { kind: 'files' },
  estimateTime: { kind: 'count' },
  milestoneId: { kind: 'count' },
  statusId: { kind: 'id' },
};

const validTaskFields = () =>
  fc.record(
    {
      projectId: fc.constant(t.seed.projects[0].projectId),
      name: unicode(0, 40),
      description: unicode(0, 200),
      priority: fc.integer({ min: 0, max: 4 }),
      dueDate: validDate,
      taskUsers: fc.subarray(t.seed.users.map((u) => u.id)),
      estimateTime: fc.integer({ min: 0, max: 100 }),
      milestoneId: fc.integer({ min: 0, max: 10 }),
    },
    { requiredKeys: ['projectId'] },
  );

const taskSemantic = (project: () => string) => () =>
  fc.oneof(
    hexId.map((groupId) => ({ projectId: project(), groupId })),
    hexId.map((statusId) => ({ projectId: project(), statusId })),
    hexId.map((id) => ({ projectId: project(), taskUsers: [t.seed.users[1].id, id] })),
    // A group of the workspace's other project is not a group of this one.
    fc.constant({ projectId: project(), groupId: t.seed.projects[1].groups[0].groupId }),
  );

const endpoints: Endpoint[] = [
  {
    name: 'create task',
    method: 'POST',
    url: () => `${t.service.baseUrl}/task`,
    fields: taskFields,
    required: ['projectId'],
    valid: validTaskFields,
    semantic: () =>
      fc.oneof(
        taskSemantic(() => t.seed.projects[0].projectId)(),
        hexId.map((projectId) => ({ projectId, name: 'nowhere' })),
      ),
  },
  {
    name: 'update task',
    method: 'PUT',
    url: () => `${t.service.altUrl}/task/updateTask/${taskId}`,
    fields: taskFields,
    required: ['projectId'],
    valid: validTaskFields,
    semantic: () =>
      fc.oneof(
        taskSemantic(() => t.seed.projects[0].projectId)(),
        // projectId must be the task's own project.
        fc.constant({ projectId: t.seed.projects[1].projectId, name: 'moved' }),
      ),
  },
  {
    name: 'post comment',
    method: 'POST',
    url: () => `${t.service.baseUrl}/task/${taskId}/comments`,
    fields: { content: { kind: 'text', max: 10_000, nonEmpty: true } },
    required: ['content'],
    valid: () => fc.record({ content: unicode(1, 100).filter((s) => s.trim() !== '') }),
    semantic: () => fc.constant({ content: '   ' }),
  },
  {
    name: 'create project',
    method: 'POST',
    url: () => `${t.service.baseUrl}/project`,
    fields: {
      projectName: { kind: 'text', max: 200, nonEmpty: true },
      customerId: { kind: 'id' },
      startDate: { kind: 'date' },
      dueDate: { kind: 'date' },
      templateId: { kind: 'id' },
    },
    required: ['projectName'],
    valid: () =>
      fc.record(
        {
          projectName: unicode(1, 40).filter((s) => s.trim() !== ''),
          customerId: fc.constant(t.seed.customers[0].customerId),
          startDate: fc.constant('2026-01-01'),
          dueDate: fc.constant('2026-02-01'),
          templateId: fc.constant(t.seed.projects[0].projectId),
        },
        { requiredKeys: ['projectName'] },
      ),
    semantic: () =>
      fc.oneof(
        hexId.map((customerId) => ({ projectName: 'x', customerId })),
        hexId.map((templateId) => ({ projectName: 'x', templateId })),
        fc.constant({ projectName: 'x', startDate: '2026-05-02', dueDate: '2026-05-01' }),
      ),
  },
  {
    name: 'update project',
    method: 'PUT',
    url: () => `${t.service.baseUrl}/project/${t.seed.projects[0].projectId}`,
    fields: {
      projectName: { kind: 'text', max: 200, nonEmpty: true },
      customerId: { kind: 'id' },
      startDate: { kind: 'date' },
      dueDate: { kind: 'date' },
      description: { kind: 'text', max: 20_000 },
      priority: { kind: 'bool' },
      defaultPriority: { kind: 'priorityName' },
      estimate: { kind: 'bool' },
      milestone: { kind: 'bool' },
    },
    required: [],
    valid: () =>
      fc.record(
        {
          projectName: unicode(1, 40).filter((s) => s.trim() !== ''),
          description: unicode(0, 100),
          priority: fc.boolean(),
          defaultPriority: fc.constantFrom(...PRIORITY_NAMES),
          estimate: fc.boolean(),
          milestone: fc.boolean(),
        },
        { requiredKeys: [] },
      ),
    semantic: () =>
      fc.oneof(
        hexId.map((customerId) => ({ customerId })),
        // The stored project runs 2026-01-05 .. 2026-06-30.
        fc.constant({ dueDate: '2025-12-31' }),
        fc.constant({ startDate: '2026-07-01' }),
      ),
  },
];

// ── Requests: a body text, a content type, and at least one certain fault ───

interface Garbage {
  body: string;
  contentType: string | null;
  note: string;
}

const json = (v: unknown) => JSON.stringify(v) ?? 'null';

function garbage(e: Endpoint): fc.Arbitrary<Garbage> {
  const asJson = (note: string) => (body: unknown) => ({
    body: json(body),
    contentType: 'application/json',
    note,
  });
  const fieldNames = Object.keys(e.fields);
  const wrongField = fc
    .constantFrom(...fieldNames)
    .chain((field) =>
      fc
        .tuple(e.valid(), wrongValue(e.fields[field]))
        .map(([base, bad]) => ({ ...base, [field]: bad })),
    );
  const unknownField = fc
    .tuple(
      e.valid(),
      fc.oneof(fc.string({ minLength: 1 }), unicode(1, 20)).filter((k) => !(k in e.fields)),
      junk,
    )
    .map(([base, key, value]) => ({ ...base, [key]: value }));
  const missingRequired =
    e.required.length > 0
      ? [
          e
            .valid()
            .map((base) =>
              Object.fromEntries(Object.entries(base).filter(([k]) => !e.required.includes(k))),
            ),
        ]
      : [];
  const badText = fc
    .oneof(
      unicode(0, 200),
      fc.constantFrom('{', '{"a":', '[1,2', '{"projectId": undefined}', "{'a': 1}", 'NaN', '{}}'),
      e.valid().map((v) => `${json(v)},`),
      e.valid().map((v) => json(v).slice(0, -1)),
    )
    .filter((s) => {
      try {
        JSON.parse(s);
        return false;
      } catch {
        return true;
      }
    });
  return fc.oneof(
    badText.map((body) => ({ body, contentType: 'application/json', note: 'bad JSON text' })),
    fc
      .oneof(
        fc.constant(null),
        fc.boolean(),
        fc.integer(),
        unicode(0, 50),
        fc.array(junk, { maxLength: 5 }),
      )
      .map(asJson('JSON that is not an object')),
    wrongField.map(asJson('a field of the wrong type or out of range')),
    unknownField.map(asJson('an unknown field')),
    ...missingRequired.map((a) => a.map(asJson('a required field missing'))),
    e.semantic().map(asJson('a reference to nothing or a broken rule')),
    fc
      .tuple(
        e.valid(),
        fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml', null),
      )
      .map(([body, contentType]) => ({
        body: json(body),
        contentType,
        note: 'wrong content type',
      })),
  );
}

describe('garbage at every write endpoint', () => {
  for (const e of endpoints) {
    it(`${e.name}: answers 400 {error} and changes nothing`, async () => {
      await fc.assert(
        fc.asyncProperty(garbage(e), async (g) => {
          const before = databaseFingerprint(t.service.db);
          const answer = await raw(e.url(), {
            method: e.method,
            apiKey: t.seed.apiKey,
            body: g.body,
            contentType: g.contentType,
          });
          expect(answer.status, `${g.note}: ${answer.text}`).toBe(400);
          const error = strictResponses.ErrorBody.parse(answer.json).error;
          expect(error).toContain(': ');
          expect(databaseFingerprint(t.service.db)).toEqual(before);
        }),
        { numRuns: NUM_RUNS },
      );
    });
  }

  it('still serves well-formed requests afterwards', async () => {
    const answer = await raw(`${t.service.baseUrl}/task`, {
      apiKey: t.seed.apiKey,
      body: { projectId: t.seed.projects[0].projectId, name: 'After the storm' },
    });
    expect(answer.status).toBe(201);
  });
});
