/**
 * POST /work/events — the service's signed `task.created` events, for tasks created outside
 * Slack (and inside: the outbox's unique key keeps those to one DM per assignee), and its
 * `task.updated` / `task.commented` (change-events.ts).
 *
 *   401  missing or wrong X-Work-Signature, or X-Work-Timestamp more than 5 minutes off
 *   400  a body that is not a well-formed event
 *   413  a body over 1 MiB
 *   200  taken in: outbox rows queued for every Slack team connected to the event's
 *        workspace (matching happens in the worker, so this answers fast); also for an event
 *        id seen before (nothing is done again, and the service stops retrying) and for event
 *        types Worklink does not use.
 * Nothing here throws out of the handler; the body is never logged (it holds e-mails).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@slack/bolt';
import { z } from 'zod';
import type { SeenEntry } from '../../activity/seen.js';
import { errMessage } from '../../error-message.js';
import type { ConnectionInfo, Store } from '../../store/index.js';
import { CREATOR_SKIPPED, type NewOutboxRow } from '../../store/index.js';
import { describeIssue, responses } from '../../workapi/contract.js';
import { verifyEventSignature } from '../../workapi/event-signature.js';
import { parseStorableJson } from '../../workapi/storable.js';
import { CHANGE_EVENTS, type ChangeEventsOptions, takeInChange } from './change-events.js';

export const EVENTS_ROUTE = '/work/events';
const MAX_BODY = 1024 * 1024;
const TOLERANCE_S = 300;
/** Event ids are remembered this long; the service re-signs retries, so a week is plenty. */
const SEEN_EVENTS_KEEP_MS = 7 * 24 * 3_600_000;

const Envelope = z.looseObject({
  id: z.string().min(1).max(200),
  type: z.string().min(1).max(200),
});

const TaskCreated = z.looseObject({
  id: z.string().min(1).max(200),
  type: z.literal('task.created'),
  workspaceId: z.string().min(1).max(200),
  actorId: z.string().max(200).optional(),
  task: responses.Task,
  taskUsers: z
    .array(
      z.looseObject({
        id: z.string().min(1).max(200),
        name: z.string().max(500).optional(),
        email: z.string().max(500).optional(),
      }),
    )
    .max(1000)
    .optional(),
});
export type TaskCreatedEvent = z.infer<typeof TaskCreated>;

export interface EventsReceiverOptions {
  store: Store;
  /** WORK_EVENTS_SECRET (or the generated one); undefined = events are not accepted. */
  secret(): string | undefined;
  /**
   * How long rows from an event whose actor is the team's own API key owner wait before
   * sending: such a task may have been created in Slack, and the Slack path (which knows
   * the real creator) takes those rows over if it comes within this time.
   */
  graceMs(): number;
  logger?: Pick<Logger, 'debug' | 'info' | 'warn'>;
  /** Told of the new task, once per team the event is for (src/activity/seen.ts). */
  seen?: SeenEntry;
  /** Tells what a task.updated event shows changed (change-events.ts, seen-comments.ts). */
  seenChange?: ChangeEventsOptions['seenChange'];
  /** Hears a comment a task.commented event brings (change-events.ts). */
  activity?: ChangeEventsOptions['activity'];
}

export function eventsHandler(options: EventsReceiverOptions) {
  let lastPrune = 0;
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const answer = (status: number, body: Record<string, unknown>) => {
      if (res.headersSent) return;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    // Headers first: an unsigned or stale request, or one announcing too big a body, is
    // refused before its body is read, and the connection closed rather than drained.
    const refuse = (status: number, body: Record<string, unknown>) => {
      if (!res.headersSent) res.setHeader('connection', 'close');
      answer(status, body);
    };
    const secret = options.secret();
    if (!secret) {
      return refuse(503, { error: 'WORK_EVENTS_SECRET is not set, so events are not accepted.' });
    }
    const timestamp = header(req, 'x-work-timestamp');
    const signature = header(req, 'x-work-signature');
    const nowS = Math.floor(Date.now() / 1000);
    if (Number(req.headers['content-length']) > MAX_BODY) {
      return refuse(413, { error: 'body over 1 MiB' });
    }
    if (!timestamp || !signature) {
      return refuse(401, { error: 'X-Work-Signature and X-Work-Timestamp are required' });
    }
    if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowS - Number(timestamp)) > TOLERANCE_S) {
      return refuse(401, { error: 'X-Work-Timestamp is not within 5 minutes of now' });
    }
    const raw = await readBody(req, MAX_BODY);
    if (raw === 'too_large') return answer(413, { error: 'body over 1 MiB' });
    if (raw === undefined) return answer(400, { error: 'the body could not be read' });
    if (!verifyEventSignature(secret, timestamp, raw, signature, nowS, TOLERANCE_S)) {
      return answer(401, { error: 'X-Work-Signature does not match' });
    }

    let json: unknown;
    try {
      json = parseStorableJson(raw);
    } catch {
      return answer(400, { error: 'the body is not JSON' });
    }
    const envelope = Envelope.safeParse(json);
    if (!envelope.success) return answer(400, { error: describeIssue(envelope.error) });
    if (CHANGE_EVENTS.some((t) => t === envelope.data.type)) {
      const taken = await takeInChange(
        { ...options, settleMs: options.graceMs, seenChange: options.seenChange },
        json,
      );
      if ('error' in taken) return answer(400, { error: taken.error });
      return answer(200, { ok: true, ...(taken.duplicate ? { duplicate: true } : {}) });
    }
    if (envelope.data.type !== 'task.created') {
      return answer(200, { ok: true, ignored: envelope.data.type });
    }
    const parsed = TaskCreated.safeParse(json);
    if (!parsed.success) return answer(400, { error: describeIssue(parsed.error) });

    const now = Date.now();
    const result = await takeIn(options, parsed.data, now);
    if (now - lastPrune > 3_600_000) {
      lastPrune = now;
      await options.store.seenEvents.prune(SEEN_EVENTS_KEEP_MS, now);
    }
    if (result.duplicate) {
      options.logger?.debug(`Event ${parsed.data.id} was already taken in; ignored.`);
      return answer(200, { ok: true, duplicate: true });
    }
    options.store.outbox.changed();
    answer(200, { ok: true, teams: result.teams, queued: result.queued });
    await tellActivity(options, parsed.data);
  };
}

/** The dedupe mark and the outbox rows, in one transaction (Store.takeInEvent). */
function takeIn(
  options: EventsReceiverOptions,
  event: TaskCreatedEvent,
  now: number,
): Promise<{ duplicate: boolean; teams: number; queued: number }> {
  const assignees = event.taskUsers?.length
    ? event.taskUsers
    : (event.task.taskUsers ?? []).map((u) => ({ id: u.taskUserId }) as { id: string });
  const unique = [...new Map(assignees.map((u) => [u.id, u])).values()];
  const creator = unique.find((u) => u.id === event.actorId) as { name?: string } | undefined;
  const rowsFor = (team: ConnectionInfo, projectName: string | undefined): NewOutboxRow[] => {
    const mayBeFromSlack = Boolean(event.actorId && event.actorId === team.keyOwnerId);
    return unique.map((u) => {
      const isActor = u.id === event.actorId;
      const user = u as { id: string; name?: string; email?: string };
      return {
        teamId: team.teamId,
        taskId: event.task.taskId,
        serviceUserId: u.id,
        serviceUserEmail: user.email,
        serviceUserName: user.name,
        source: 'event',
        actorServiceUserId: event.actorId,
        creatorLabel: creator?.name,
        taskName: event.task.taskName ?? '',
        projectId: event.task.projectId,
        projectName,
        dueDate: event.task.dueDate ?? undefined,
        priority: event.task.priority,
        status: isActor ? 'skipped' : 'pending',
        lastError: isActor ? CREATOR_SKIPPED : undefined,
        notBefore: mayBeFromSlack ? now + options.graceMs() : now,
      };
    });
  };
  return options.store.takeInEvent(
    { id: event.id, workspaceId: event.workspaceId, projectId: event.task.projectId },
    rowsFor,
    now,
  );
}

/** Tells `seen` of the new task, for each team connected to its workspace. */
async function tellActivity(options: EventsReceiverOptions, event: TaskCreatedEvent) {
  const { seen } = options;
  if (!seen) return;
  try {
    const teams = (await options.store.connections.list()).filter(
      (c) => c.workspaceId === event.workspaceId,
    );
    const { task, actor } = seenFromEvent(event);
    for (const team of teams) seen(team.teamId, undefined, task, { actor });
  } catch (e) {
    options.logger?.warn(`Event ${event.id}: the task activity was not told: ${errMessage(e)}`);
  }
}

/** The event's task as `seen` is told it: a task new to Worklink, and who made it. */
function seenFromEvent(event: TaskCreatedEvent) {
  const creator = event.taskUsers?.find((u) => u.id === event.actorId);
  return {
    task: {
      taskId: event.task.taskId,
      projectId: event.task.projectId,
      assigneeIds: (event.task.taskUsers ?? []).map((u) => u.taskUserId),
      done: event.task.status === true,
    },
    actor: event.actorId ? { serviceUserId: event.actorId, name: creator?.name } : undefined,
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The body as text; 'too_large' past `limit` bytes; undefined when the stream failed. */
function readBody(req: IncomingMessage, limit: number): Promise<string | 'too_large' | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (v: string | 'too_large' | undefined) => {
      if (done) return;
      done = true;
      resolve(v);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        finish('too_large');
        // Keep reading (and dropping) so the 413 can still be answered on this socket.
        chunks.length = 0;
        return;
      }
      if (!done) chunks.push(chunk);
    });
    req.on('end', () => finish(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => finish(undefined));
    req.on('aborted', () => finish(undefined));
  });
}
