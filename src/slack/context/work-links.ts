/**
 * Where a task or a project opens in the service's own web app: "Open in …" buttons on every
 * task surface, and the links that unfurl as previews (docs/links.md).
 *
 * - WORK_TASK_URL / WORK_PROJECT_URL (src/link-settings.ts): templates for the service's web
 *   app (the hosted one's address pattern is not documented, so it is a setting);
 * - with the embedded service and no template: its own read-only pages, signed with the
 *   team's key (src/workapi/page-links.ts), so no page is public by accident.
 * No address known → no button (never a broken one).
 */
import { fillTemplate, type LinkSettings } from '../../link-settings.js';
import { apiKeyHash, pageSignature, pageUrl } from '../../workapi/page-links.js';

export interface LinkTarget {
  kind: 'task' | 'project';
  id: string;
}

/** The placeholders' values when `url` is `template` filled in, else undefined. */
export function matchTemplate(template: string, url: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template
    .split(/(\{\w+\})/)
    .map((part) => {
      const m = /^\{(\w+)\}$/.exec(part);
      if (!m) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(m[1] ?? '');
      return '([^/?#&]+)';
    })
    .join('');
  const found = new RegExp(`^${pattern}$`).exec(url.replace(/\/+$/, ''));
  if (!found) return undefined;
  return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(found[i + 1] ?? '')]));
}

export interface TaskAddress {
  taskId: string;
  number?: number;
  projectId?: string;
}

export interface WorkLinksOptions {
  settings?: LinkSettings;
  /** Origin of the embedded service (its pages), when this app uses it. */
  embeddedOrigin?: string;
}

export class WorkLinks {
  /** Each team's connection key hash: what signs the embedded pages' addresses. */
  private readonly keys = new Map<string, string>();

  constructor(private readonly options: WorkLinksOptions) {}

  /** The button's words: "Open in Teamcamp" (WORK_SERVICE_NAME), "Open in browser". */
  get label(): string {
    const name =
      this.options.settings?.serviceName ??
      (this.options.settings?.taskUrl ? 'the service' : 'browser');
    return `Open in ${name}`;
  }

  /** Called with each team's connection key as its client is made (context/work-clients.ts). */
  rememberKey(teamId: string, apiKey: string): void {
    this.keys.set(teamId, apiKeyHash(apiKey));
  }

  task(teamId: string, t: TaskAddress): string | undefined {
    const template = this.options.settings?.taskUrl;
    if (template) {
      if (template.includes('{taskNumber}') && t.number === undefined) return undefined;
      if (template.includes('{projectId}') && !t.projectId) return undefined;
      return fillTemplate(template, {
        taskId: t.taskId,
        projectId: t.projectId,
        taskNumber: t.number === undefined ? undefined : String(t.number),
      });
    }
    return this.page(teamId, 'task', t.taskId);
  }

  project(teamId: string, projectId: string): string | undefined {
    const template = this.options.settings?.projectUrl;
    if (template) return fillTemplate(template, { projectId });
    return this.page(teamId, 'project', projectId);
  }

  /** The hosts whose links are this service's (for unfurls): the templates' and the pages'. */
  hosts(): string[] {
    const hosts = new Set<string>();
    for (const t of [this.options.settings?.taskUrl, this.options.settings?.projectUrl]) {
      const filled = t && fillTemplate(t, { taskId: 'x', projectId: 'x', taskNumber: '1' });
      if (filled && URL.canParse(filled)) hosts.add(new URL(filled).host);
    }
    if (this.options.embeddedOrigin && URL.canParse(this.options.embeddedOrigin)) {
      hosts.add(new URL(this.options.embeddedOrigin).host);
    }
    return [...hosts];
  }

  /**
   * What a posted link points at, for this team: a task or a project of the service. An
   * embedded page counts only when signed with this team's key (a link of another workspace
   * is not this workspace's to show); a template's link when it matches the template.
   */
  parse(teamId: string, url: string): LinkTarget | undefined {
    if (!URL.canParse(url)) return undefined;
    const u = new URL(url);
    const origin = this.options.embeddedOrigin;
    if (origin && URL.canParse(origin) && u.host === new URL(origin).host) {
      const m = /^\/pages\/(task|project)\/([^/]+)$/.exec(u.pathname);
      const hash = this.keys.get(teamId);
      if (!m || !hash) return undefined;
      const kind = m[1] === 'task' ? 'task' : 'project';
      const id = decodeURIComponent(m[2] ?? '');
      const sig = u.searchParams.get('sig') ?? '';
      return sig && pageSignature(hash, kind, id) === sig ? { kind, id } : undefined;
    }
    const { taskUrl, projectUrl } = this.options.settings ?? {};
    const task = taskUrl ? matchTemplate(taskUrl, url) : undefined;
    if (task?.taskId) return { kind: 'task', id: task.taskId };
    const project = projectUrl ? matchTemplate(projectUrl, url) : undefined;
    if (project?.projectId) return { kind: 'project', id: project.projectId };
    return undefined;
  }

  private page(teamId: string, kind: 'task' | 'project', id: string): string | undefined {
    const origin = this.options.embeddedOrigin;
    const hash = this.keys.get(teamId);
    if (!origin || !hash) return undefined;
    return pageUrl(origin, kind, id, hash);
  }
}

/** A URL button opening a task or project in the service ("Open in …"). */
export function openInButton(label: string, url: string) {
  return {
    type: 'button' as const,
    action_id: 'open_in_service',
    text: { type: 'plain_text' as const, text: label },
    url,
  };
}
