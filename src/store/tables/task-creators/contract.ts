/**
 * task_creators: who created each task, as Slack knows it — the Slack user who made it from
 * Slack, or the service user the service names. The service's own "created by" is often the
 * API key's owner (everything Worklink makes is made with one key), so the person who acted
 * in Slack is remembered here. The first record wins: a task's creator never changes.
 */

export interface TaskCreator {
  slackUserId?: string;
  serviceUserId?: string;
}

export interface TaskCreatorsStore {
  /** Records the creator unless one is known already; nothing when both ids are missing. */
  note(teamId: string, taskId: string, creator: TaskCreator, now?: number): Promise<void>;
  get(teamId: string, taskId: string): Promise<TaskCreator | undefined>;
  deleteTeam(teamId: string): Promise<number>;
}
