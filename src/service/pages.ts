/**
 * The embedded service's read-only web pages: one task (name, number, status, assignees, due
 * date, priority, description, comments) and one project (its open tasks). They are what
 * "Open in …" opens when Worklink runs with the embedded service (docs/links.md).
 *
 * Plain, accessible HTML: headings, a definition list, landmarks, no script; every value
 * HTML-escaped. Access needs the signature of a workspace key (src/workapi/page-links.ts);
 * an unknown id and a wrong signature answer the same 404 page, so nothing is public by
 * accident and nothing tells whether an id exists.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ACTIVITY_TYPE, PRIORITY_NAMES } from '../workapi/contract.js';
import {
  PAGES_PREFIX,
  type PageKind,
  pageSignature,
  pageSignatureValid,
} from '../workapi/page-links.js';
import { taskComments } from './activity.js';
import { type Db, sql } from './db.js';
import type { GroupCommit } from './group-commit.js';
import { listStatuses } from './statuses.js';
import { usersByIds } from './users.js';

interface TaskPageRow {
  id: string;
  project_id: string;
  project_name: string;
  workspace_id: string;
  task_number: number;
  name: string;
  description: string;
  status_id: string;
  complete: number;
  priority: number;
  due_date: string | null;
  created_by: string;
}

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
/** Text as HTML: every character that could start markup or end an attribute is escaped. */
export function html(text: string): string {
  return text.replace(/[&<>"']/g, (c) => escapes[c] ?? c);
}

function keyHashes(db: Db, workspaceId: string): string[] {
  return sql<{ key_hash: string }>(db, 'SELECT key_hash FROM api_keys WHERE workspace_id = ?')
    .all(workspaceId)
    .map((r) => r.key_hash);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${html(title)}</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1d1c1d;background:#fff}
main{max-width:46rem;margin:0 auto;padding:1.5rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}
dt{font-weight:600}
.description{white-space:pre-wrap}
li{margin:.5rem 0}
a{color:#1264a3}
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

function send(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply
    .code(status)
    .headers({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
      'x-content-type-options': 'nosniff',
      // The address carries its signature: never sent on to another site.
      'referrer-policy': 'no-referrer',
      'cache-control': 'private, no-store',
    })
    .send(body);
}

const NOT_FOUND = page(
  'Not found',
  '<h1>Not found</h1>\n<p>There is no such page, or this address is not a valid link to it.</p>',
);

function dateOnly(value: string | null): string {
  return value ? value.slice(0, 10) : 'none';
}

function taskPage(db: Db, row: TaskPageRow, link: (kind: PageKind, id: string) => string): string {
  const status = listStatuses(db, row.project_id).find((s) => s.id === row.status_id);
  const assignees = sql<{ user_id: string }>(
    db,
    'SELECT user_id FROM task_assignees WHERE task_id = ? ORDER BY position',
  )
    .all(row.id)
    .map((a) => a.user_id);
  const comments = taskComments(db, row.id).filter((c) => c.Type === ACTIVITY_TYPE.comment);
  const people = usersByIds(db, row.workspace_id, [
    ...assignees,
    row.created_by,
    ...comments.map((c) => c.CreatedBy ?? ''),
  ]);
  const nameOf = (id: string) => people.find((p) => p.id === id)?.name ?? 'someone';
  const facts: [string, string][] = [
    ['Number', `#${row.task_number}`],
    ['Project', `<a href="${html(link('project', row.project_id))}">${html(row.project_name)}</a>`],
    ['Status', html(status?.name ?? (row.complete === 1 ? 'Done' : 'Open'))],
    ['Assignees', assignees.length ? html(assignees.map(nameOf).join(', ')) : 'nobody'],
    ['Due', html(dateOnly(row.due_date))],
    ['Priority', html(PRIORITY_NAMES[row.priority] ?? String(row.priority))],
    ['Created by', html(nameOf(row.created_by))],
  ];
  const commentItems = comments.map((c) => {
    const at = c.CreatedTime ?? '';
    return `<li><p><strong>${html(nameOf(c.CreatedBy ?? ''))}</strong>, <time datetime="${html(at)}">${html(at.slice(0, 16).replace('T', ' '))} UTC</time></p><p class="description">${html(c.Comment ?? '')}</p></li>`;
  });
  const title = `#${row.task_number} ${row.name || 'Untitled task'}`;
  return page(
    title,
    [
      `<h1>${html(title)}</h1>`,
      `<dl>\n${facts.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('\n')}\n</dl>`,
      '<h2>Description</h2>',
      row.description
        ? `<p class="description">${html(row.description)}</p>`
        : '<p>No description.</p>',
      '<h2>Comments</h2>',
      commentItems.length ? `<ol>\n${commentItems.join('\n')}\n</ol>` : '<p>No comments.</p>',
    ].join('\n'),
  );
}

function projectPage(
  db: Db,
  project: { id: string; name: string },
  link: (kind: PageKind, id: string) => string,
): string {
  const open = sql<{ id: string; task_number: number; name: string; due_date: string | null }>(
    db,
    `SELECT id, task_number, name, due_date FROM tasks
      WHERE project_id = ? AND complete = 0 ORDER BY task_number LIMIT 500`,
  ).all(project.id);
  const items = open.map(
    (t) =>
      `<li><a href="${html(link('task', t.id))}">#${t.task_number} ${html(t.name || 'Untitled task')}</a>${t.due_date ? `, due ${html(dateOnly(t.due_date))}` : ''}</li>`,
  );
  return page(
    project.name,
    [
      `<h1>${html(project.name)}</h1>`,
      `<h2>Open tasks (${open.length})</h2>`,
      items.length ? `<ul>\n${items.join('\n')}\n</ul>` : '<p>No open tasks.</p>',
    ].join('\n'),
  );
}

/** Adds `GET /pages/task/:taskId` and `GET /pages/project/:projectId` (no apiKey header). */
export function registerPages(app: FastifyInstance, db: Db, commits: GroupCommit): void {
  const route = (kind: PageKind) =>
    app.get<{ Params: { id: string }; Querystring: { sig?: unknown } }>(
      `${PAGES_PREFIX}/${kind}/:id`,
      (request, reply) => {
        const { id } = request.params;
        const sig = typeof request.query.sig === 'string' ? request.query.sig : '';
        // After the commit of the writes queued this turn (group-commit.ts): committed state.
        commits.whenCommitted(
          () => {
            const answer = pageAnswer(db, kind, id, sig);
            send(reply, answer ? 200 : 404, answer ?? NOT_FOUND);
          },
          (e) => reply.send(e),
        );
      },
    );
  route('task');
  route('project');
}

/** The page's HTML, or undefined for an unknown id or a wrong signature (the same 404). */
function pageAnswer(db: Db, kind: PageKind, id: string, sig: string): string | undefined {
  const task =
    kind === 'task'
      ? sql<TaskPageRow>(
          db,
          `SELECT t.id, t.project_id, p.name AS project_name, p.workspace_id, t.task_number,
                  t.name, t.description, t.status_id, t.complete, t.priority, t.due_date,
                  t.created_by
             FROM tasks t JOIN projects p ON p.id = t.project_id WHERE t.id = ?`,
        ).get(id)
      : undefined;
  const found =
    task ??
    (kind === 'project'
      ? sql<{ id: string; name: string; workspace_id: string }>(
          db,
          'SELECT id, name, workspace_id FROM projects WHERE id = ?',
        ).get(id)
      : undefined);
  if (!found) return undefined;
  const hashes = keyHashes(db, found.workspace_id);
  if (!sig || !pageSignatureValid(hashes, kind, id, sig)) return undefined;
  // Links within the page are signed with the key that signed this one.
  const signer = hashes.find((h) => pageSignature(h, kind, id) === sig) ?? '';
  const link = (k: PageKind, target: string) =>
    `${PAGES_PREFIX}/${k}/${encodeURIComponent(target)}?sig=${pageSignature(signer, k, target)}`;
  return task ? taskPage(db, task, link) : projectPage(db, found, link);
}
