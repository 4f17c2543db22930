// The page's own endpoints: a per-user snapshot of the workspace, a Server-Sent Events stream
// that says "something changed", and one POST per thing a user can do. Input is checked with
// zod; a bad request gets a 400 with a sentence and changes nothing.

import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { InteractionResult, Interactions } from './interactions.js';
import { isObj } from './json-guards.js';
import type { AppSurface } from './manifest.js';
import type { PageSnapshot } from './page/types.js';
import type { SandboxMessage } from './records.js';
import type { SandboxState } from './state.js';
import type { SuggestResult } from './suggestions.js';

const Id = z.string().min(1).max(255);
const RawValue = z.union([
  z.string().max(20_000),
  z.array(z.string().max(20_000)).max(500),
  z.null(),
]);
const RawValues = z.record(Id, z.record(Id, RawValue));
const Container = z.discriminatedUnion('type', [
  z.object({ type: z.literal('message'), channel: Id, ts: Id }),
  z.object({ type: z.literal('view'), viewId: Id }),
]);

const schemas = {
  message: z.object({
    user: Id,
    channel: Id,
    text: z.string().max(40_000),
    threadTs: z.string().max(40).optional(),
  }),
  action: z.object({
    user: Id,
    container: Container,
    blockId: Id,
    actionId: Id,
    value: RawValue.optional(),
    viewValues: RawValues.optional(),
  }),
  /** What the user has typed so far into an external_select. */
  suggest: z.object({
    user: Id,
    container: Container,
    blockId: Id,
    actionId: Id,
    value: z.string().max(2000),
  }),
  submit: z.object({ user: Id, viewId: Id, values: RawValues }),
  close: z.object({ user: Id, viewId: Id }),
  details: z.object({ user: Id, channel: Id, ts: Id, url: z.string().max(3000) }),
  closePanel: z.object({ user: Id }),
  shortcut: z.object({ user: Id, callbackId: Id, channel: Id.optional(), ts: Id.optional() }),
  home: z.object({ user: Id, tab: z.enum(['home', 'messages']) }),
  dismiss: z.object({ user: Id, channel: Id, ts: Id }),
};

const StateQuery = z.object({ user: Id.optional() });

const MESSAGES_PER_CHANNEL = 200;

function messageForPage(m: SandboxMessage) {
  return {
    ts: m.ts,
    user: m.user,
    fromBot: m.botId !== undefined,
    fromSlackbot: m.fromSlackbot === true,
    text: m.text,
    blocks: m.blocks ?? null,
    attachments: m.attachments?.filter(isObj) ?? null,
    unfurl: m.unfurl ?? null,
    threadTs: m.threadTs ?? null,
    ephemeral: m.ephemeralTo !== undefined,
    edited: m.edited !== undefined,
    reactions: (m.reactions ?? []).map((r) => ({ name: r.name, users: [...r.users] })),
  };
}

/** Everything the page needs to draw the workspace as one user sees it. */
export function snapshot(state: SandboxState, surface: AppSurface, userId: string): PageSnapshot {
  const me = state.users.get(userId);
  const channels = [...state.channels.values()].filter((c) => c.members.has(userId));
  const messages: Record<string, ReturnType<typeof messageForPage>[]> = {};
  for (const c of channels) {
    const visible = (state.messages.get(c.id) ?? []).filter((m) => state.canSee(userId, m));
    messages[c.id] = visible.slice(-MESSAGES_PER_CHANNEL).map(messageForPage);
  }
  const homeId = state.homeViews.get(userId);
  return {
    version: state.version,
    team: state.team,
    app: {
      ...surface,
      name: state.appName,
      botUserId: state.bot.botUserId,
      imChannel: state.imFor(userId)?.id ?? null,
    },
    me: me && !me.isBot ? userId : null,
    users: [...state.users.values()].map((u) => ({
      id: u.id,
      name: u.name,
      realName: u.realName,
      email: u.email,
      tz: u.tz,
      title: u.title ?? '',
      isBot: u.isBot,
      color: u.color,
    })),
    channels: channels.map((c) => ({ id: c.id, name: c.name, kind: c.kind, topic: c.topic ?? '' })),
    startChannel: state.startChannel ?? null,
    messages,
    modals: state
      .stackOf(userId)
      .map((id) => state.views.get(id)?.view)
      .filter((v) => v !== undefined),
    home: homeId ? (state.views.get(homeId)?.view ?? null) : null,
    panel: state.panels.get(userId) ?? null,
    log: state.log.slice(-50),
  };
}

export interface PageApiDeps {
  state: SandboxState;
  interactions: Interactions;
  surface: () => AppSurface;
  streams: Set<ServerResponse>;
}

export function pageRoutes(app: FastifyInstance, deps: PageApiDeps): void {
  const { state, interactions } = deps;

  app.get('/sandbox/state', async (req, reply) => {
    // ?user=…, once; anything else (none, repeated, empty) is the first person.
    const query = StateQuery.safeParse(req.query);
    const user = query.success ? query.data.user : undefined;
    const humans = state.humans();
    const userId = user && humans.some((u) => u.id === user) ? user : humans[0]?.id;
    return reply
      .header('cache-control', 'no-store')
      .send(snapshot(state, deps.surface(), userId ?? ''));
  });

  app.get('/sandbox/stream', (req, reply) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    res.write(`retry: 1000\nevent: change\ndata: ${state.version}\n\n`);
    const onChange = (version: number) => res.write(`event: change\ndata: ${version}\n\n`);
    state.on('change', onChange);
    deps.streams.add(res);
    req.raw.on('close', () => {
      state.off('change', onChange);
      deps.streams.delete(res);
    });
  });

  const post = <T extends z.ZodType>(
    path: string,
    schema: T,
    run: (
      body: z.infer<T>,
    ) => Promise<InteractionResult | SuggestResult> | InteractionResult | SuggestResult,
  ) => {
    app.post(path, async (req, reply: FastifyReply) => {
      const parsed = schema.safeParse(req.body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue?.path.join('.') || 'body';
        return reply.code(400).send({ ok: false, problem: `${where}: ${issue?.message}` });
      }
      return reply.send(await run(parsed.data));
    });
  };

  post('/sandbox/message', schemas.message, (b) =>
    interactions.sendMessage(b.user, b.channel, b.text, b.threadTs),
  );
  post('/sandbox/action', schemas.action, (b) =>
    interactions.blockAction({
      userId: b.user,
      container: b.container,
      blockId: b.blockId,
      actionId: b.actionId,
      value: b.value,
      viewValues: b.viewValues,
    }),
  );
  post('/sandbox/suggest', schemas.suggest, (b) =>
    interactions.suggest({
      userId: b.user,
      container: b.container,
      blockId: b.blockId,
      actionId: b.actionId,
      value: b.value,
    }),
  );
  post('/sandbox/submit', schemas.submit, (b) =>
    interactions.submitView({ userId: b.user, viewId: b.viewId, values: b.values }),
  );
  post('/sandbox/close', schemas.close, (b) =>
    interactions.closeView({ userId: b.user, viewId: b.viewId }),
  );
  post('/sandbox/entity-details', schemas.details, (b) =>
    interactions.entityDetails(b.user, b.channel, b.ts, b.url),
  );
  post('/sandbox/close-panel', schemas.closePanel, (b) => interactions.closePanel(b.user));
  post('/sandbox/shortcut', schemas.shortcut, (b) =>
    interactions.shortcut({
      userId: b.user,
      callbackId: b.callbackId,
      channel: b.channel,
      ts: b.ts,
    }),
  );
  post('/sandbox/home', schemas.home, (b) => interactions.openHome({ userId: b.user, tab: b.tab }));
  post('/sandbox/dismiss', schemas.dismiss, (b) => {
    const m = state.findMessage(b.channel, b.ts);
    if (!m || m.ephemeralTo !== b.user) return { ok: false, problem: 'Nothing to dismiss.' };
    state.deleteMessage(m);
    return { ok: true };
  });
}
