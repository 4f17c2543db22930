/**
 * WORK_TASK_URL, WORK_PROJECT_URL and WORK_SERVICE_NAME: where a task and a project open in
 * the service's own web app (docs/links.md). Templates with `{taskId}`, `{projectId}` and
 * `{taskNumber}`; checked at start-up (src/config.ts) so a typo is one sentence, not a broken
 * button in every message.
 */

export interface LinkSettings {
  /** e.g. https://dash.teamcamp.app/project/{projectId}/task/{taskId} */
  taskUrl?: string;
  /** e.g. https://dash.teamcamp.app/project/{projectId} */
  projectUrl?: string;
  /** What "Open in …" names (default: Teamcamp for a service URL, else the task pages). */
  serviceName?: string;
}

const PLACEHOLDERS = ['taskId', 'projectId', 'taskNumber'] as const;
const SAMPLE = {
  taskId: '65a1f0c2e4b0a1b2c3d4e5f6',
  projectId: '65a1f0c2e4b0a1b2c3d4e5f7',
  taskNumber: '12',
};

/** `template` with its placeholders filled (each value URL-encoded). */
export function fillTemplate(template: string, values: Partial<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(values[name] ?? ''),
  );
}

/** One sentence saying what is wrong with a template, or undefined when it is usable. */
export function templateProblem(
  name: string,
  template: string,
  needs: readonly (typeof PLACEHOLDERS)[number][],
): string | undefined {
  const used = [...template.matchAll(/\{(\w*)\}/g)].map((m) => m[1] ?? '');
  const unknown = used.find((u) => !PLACEHOLDERS.some((p) => p === u));
  if (unknown !== undefined) {
    return `${name} has the unknown placeholder {${unknown}}; use {taskId}, {projectId} or {taskNumber}.`;
  }
  if (!needs.some((n) => used.includes(n))) {
    return `${name} must contain ${needs.map((n) => `{${n}}`).join(' or ')}, like https://dash.teamcamp.app/task/{taskId}.`;
  }
  const filled = fillTemplate(template, SAMPLE);
  const protocol = URL.canParse(filled) ? new URL(filled).protocol : undefined;
  if (protocol !== 'https:' && protocol !== 'http:') {
    return `${name} must be an http(s) address template, like https://dash.teamcamp.app/task/{taskId}, not "${template}".`;
  }
  return undefined;
}

/** Reads the three settings; a bad template is an Error whose message is one sentence. */
export function linkSettings(
  get: (name: string) => string | undefined,
  fail: (sentence: string) => Error,
): LinkSettings | undefined {
  const taskUrl = get('WORK_TASK_URL');
  const projectUrl = get('WORK_PROJECT_URL');
  const taskProblem =
    taskUrl && templateProblem('WORK_TASK_URL', taskUrl, ['taskId', 'taskNumber']);
  if (taskProblem) throw fail(taskProblem);
  const projectProblem =
    projectUrl && templateProblem('WORK_PROJECT_URL', projectUrl, ['projectId']);
  if (projectProblem) throw fail(projectProblem);
  const serviceName = get('WORK_SERVICE_NAME');
  if (serviceName && serviceName.length > 40) {
    throw fail('WORK_SERVICE_NAME must be at most 40 characters (it is shown on buttons).');
  }
  if (!taskUrl && !projectUrl && !serviceName) return undefined;
  return {
    ...(taskUrl ? { taskUrl } : {}),
    ...(projectUrl ? { projectUrl } : {}),
    ...(serviceName ? { serviceName } : {}),
  };
}
