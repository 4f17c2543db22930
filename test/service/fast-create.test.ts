/**
 * Create task past Fastify (src/service/fast-create.ts): two servers over one database, one
 * answering well-formed creates itself and one (fastCreate: false) with Fastify alone, get the
 * same requests; every answer — status, headers, body — is the same, created tasks aside (their
 * ids and numbers differ; each answer is byte-equal to a read of its task). Fastify never sees
 * the well-formed creates of the first; it answers the rest, including creates whose body the
 * fast path read and then handed over (bad JSON, a poisoned prototype, a schema problem).
 */
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/service/db.js';
import { GroupCommit } from '../../src/service/group-commit.js';
import { type SeedResult, seedDemoWorkspace } from '../../src/service/index.js';
import { buildServer } from '../../src/service/server.js';
import { makeTempDir } from './support.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

interface Sent {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Sent in chunks without a content-length. */
  chunked?: boolean;
}

interface Served {
  app: FastifyInstance;
  port: number;
  /** Requests Fastify answered. */
  seen: number;
}

const temp = makeTempDir();
const db = openDatabase(join(temp.dir, 'service.db'));
let seed: SeedResult;
let fast: Served;
let fastify: Served;

async function serve(fastCreate: boolean): Promise<Served> {
  const app = buildServer({ db, commits: new GroupCommit(db), fastCreate });
  const served: Served = { app, port: 0, seen: 0 };
  // Runs for every request Fastify answered (before its client has the whole answer).
  app.addHook('onResponse', (_request, _reply, done) => {
    served.seen++;
    done();
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  served.port = (app.server.address() as AddressInfo).port;
  return served;
}

function send(port: number, sent: Sent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {
      apiKey: seed.apiKey,
      'content-type': 'application/json',
      ...sent.headers,
    };
    if (sent.body !== undefined && !sent.chunked) {
      headers['content-length'] = String(Buffer.byteLength(sent.body));
    }
    const req = request(
      { host: '127.0.0.1', port, method: sent.method ?? 'POST', path: sent.path ?? '/v1.0/task' },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
        });
        res.on('end', () => {
          const { date: _date, ...kept } = res.headers;
          resolve({ status: res.statusCode ?? 0, headers: kept, body });
        });
      },
    );
    req.on('error', reject);
    for (const [name, value] of Object.entries(headers)) req.setHeader(name, value);
    if (sent.chunked && sent.body !== undefined) {
      const half = Math.floor(sent.body.length / 2);
      req.write(sent.body.slice(0, half));
      req.end(sent.body.slice(half));
    } else {
      req.end(sent.body);
    }
  });
}

/** The same request to both servers: the answers, and how many each let Fastify see. */
async function both(sent: Sent) {
  const seen = [fast.seen, fastify.seen];
  const a = await send(fast.port, sent);
  const b = await send(fastify.port, sent);
  return { fast: a, fastify: b, fastifySaw: [fast.seen - seen[0], fastify.seen - seen[1]] };
}

/** Headers but the length, which differs with the task number's digits; it is checked apart. */
const headersBesideLength = (answer: Answer) => {
  expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(answer.body)));
  const { 'content-length': _length, ...rest } = answer.headers;
  return rest;
};

/** A created task's answer without what differs between two creates. */
const withoutIdentity = (body: string) => {
  const { taskId: _id, taskNumber: _n, ...rest } = JSON.parse(body);
  return rest;
};

beforeAll(async () => {
  seed = seedDemoWorkspace(db);
  fast = await serve(true);
  fastify = await serve(false);
});

afterAll(async () => {
  await fast.app.close();
  await fastify.app.close();
  db.close();
  temp.remove();
});

describe('create task past Fastify', () => {
  it('answers a well-formed create itself, as Fastify would, with the bytes a read gives', async () => {
    const project = seed.projects[1].projectId;
    for (const body of [
      { projectId: project, name: 'Plain' },
      {
        projectId: project,
        name: 'Full ✓',
        description: 'line\nnext "quoted" \u0001',
        priority: 2,
        dueDate: '2026-11-25',
        taskUsers: [seed.users[1].id, seed.users[0].id],
      },
    ]) {
      for (const contentType of ['application/json', 'application/json; charset=utf-8']) {
        const sent = { body: JSON.stringify(body), headers: { 'content-type': contentType } };
        const answers = await both(sent);
        expect(answers.fastifySaw).toEqual([0, 1]);
        expect(answers.fast.status).toBe(201);
        expect(headersBesideLength(answers.fast)).toEqual(headersBesideLength(answers.fastify));
        expect(withoutIdentity(answers.fast.body)).toEqual(withoutIdentity(answers.fastify.body));
        const { taskId } = JSON.parse(answers.fast.body);
        const read = await send(fast.port, { method: 'GET', path: `/v1.0/task/${taskId}` });
        expect(read.body).toBe(answers.fast.body);
      }
    }
  });

  it('answers every other request as Fastify does, read bodies handed over', async () => {
    const project = seed.projects[1].projectId;
    const cases: { what: string; sent: Sent; handedOver: boolean }[] = [
      { what: 'invalid JSON', sent: { body: '{"projectId":' }, handedOver: true },
      { what: 'empty body', sent: { body: '' }, handedOver: true },
      { what: 'a JSON array', sent: { body: '[1]' }, handedOver: true },
      {
        what: 'a poisoned prototype',
        sent: { body: `{"projectId":"${project}","__proto__":{"x":1}}` },
        handedOver: true,
      },
      {
        what: 'a constructor key',
        sent: { body: `{"projectId":"${project}","constructor":{"prototype":{}}}` },
        handedOver: true,
      },
      {
        what: 'a schema problem',
        sent: { body: JSON.stringify({ projectId: project, priority: 9 }) },
        handedOver: true,
      },
      {
        what: 'a byte-order mark',
        sent: { body: `\uFEFF${JSON.stringify({ projectId: project, name: 'BOM' })}` },
        handedOver: true,
      },
      {
        what: 'an unknown project (the handler refuses it)',
        sent: { body: JSON.stringify({ projectId: 'no-such-project', name: 'x' }) },
        handedOver: false,
      },
      {
        what: 'an unknown user',
        sent: { body: JSON.stringify({ projectId: project, taskUsers: ['no-such-user'] }) },
        handedOver: false,
      },
      {
        what: 'a wrong content type',
        sent: { body: '{}', headers: { 'content-type': 'text/plain' } },
        handedOver: true,
      },
      {
        what: 'an unknown key',
        sent: { body: JSON.stringify({ projectId: project }), headers: { apiKey: 'wk_nope' } },
        handedOver: true,
      },
      {
        what: 'a body over the limit',
        sent: { body: JSON.stringify({ projectId: project, name: 'x'.repeat(1024 * 1024) }) },
        handedOver: true,
      },
      {
        what: 'a chunked body',
        sent: { body: JSON.stringify({ projectId: project, name: 'Chunked' }), chunked: true },
        handedOver: true,
      },
      {
        what: 'another path',
        sent: { path: '/v1.0/task?x=1', body: JSON.stringify({ projectId: project }) },
        handedOver: true,
      },
    ];
    for (const { what, sent, handedOver } of cases) {
      const answers = await both(sent);
      expect(answers.fastifySaw, what).toEqual(handedOver ? [1, 1] : [0, 1]);
      expect(answers.fast.status, what).toBe(answers.fastify.status);
      expect(headersBesideLength(answers.fast), what).toEqual(headersBesideLength(answers.fastify));
      if (answers.fast.status === 201) {
        expect(withoutIdentity(answers.fast.body), what).toEqual(
          withoutIdentity(answers.fastify.body),
        );
      } else {
        expect(answers.fast.body, what).toBe(answers.fastify.body);
      }
    }
  });
});
