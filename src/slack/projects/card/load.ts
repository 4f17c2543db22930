/**
 * Loading what a project card or form needs from the service. The project and its details
 * are required (a bad id fails here); the directory lists only turn ids into names, so when
 * one of them fails the card still shows, with ids instead of names.
 */
import type { WorkClient } from '../../../workapi/client.js';
import type { ProjectOverview } from './project-card.js';

export async function loadProjectOverview(
  work: WorkClient,
  projectId: string,
): Promise<ProjectOverview> {
  // All five at once; the optional three never reject (allSettled), so nothing dangles.
  const optional = Promise.allSettled([
    work.listProjectGroups(projectId),
    work.listCustomers(),
    work.listUsers(),
  ]);
  const [project, details] = await Promise.all([
    work.getProject(projectId),
    work.getProjectDetails(projectId),
  ]);
  const [groups, customers, users] = await optional;
  return {
    project,
    details,
    groups: groups.status === 'fulfilled' ? groups.value : undefined,
    customers: customers.status === 'fulfilled' ? customers.value : undefined,
    users: users.status === 'fulfilled' ? users.value : undefined,
  };
}
