import { createCustomer } from './customers.js';
import { type Db, openDatabase, transact } from './db.js';
import { groupRows } from './groups.js';
import { insertProject } from './projects.js';
import { createTask } from './task-create.js';
import { createUser } from './users.js';
import { type Caller, createApiKey, createWorkspace } from './workspaces.js';

/** What `seed` prints (as JSON) and returns: enough to connect and to try everything. */
export interface SeedResult {
  /** Alice's key: the one the Slack workspace connects with. */
  apiKey: string;
  workspaceId: string;
  workspaceName: string;
  /** `apiKey`: the user's own key (every demo user has one, to connect with `/work connect me`). */
  users: { id: string; name: string; email: string; apiKey?: string }[];
  customers: { customerId: string; companyName: string }[];
  projects: {
    projectId: string;
    projectName: string;
    groups: { groupId: string; groupName: string }[];
  }[];
}

/**
 * The demo users; the sandbox's Slack users have the same e-mails. Alice's key is the one the
 * workspace connects with; everyone has a key of their own too (acting as themselves).
 */
export const DEMO_USERS = [
  { name: 'Alice Adams', email: 'alice@example.com', isOwner: true, isAdmin: true },
  { name: 'Bob Brown', email: 'bob@example.com' },
  { name: 'Carol Chen', email: 'carol@example.com' },
  { name: 'Dan Diaz', email: 'dan@example.com' },
  { name: 'Erin Evans', email: 'erin@example.com' },
] as const;

/**
 * Creates a NEW demo workspace (every call, so tests never share one) with users, customers,
 * two projects and a few tasks, and returns its API key. Seeded tasks record no events: they
 * are history, not news, and must not DM anyone when the Slack app subscribes.
 */
export interface SeedOptions {
  /**
   * yyyy-MM-dd: dates relative to this day (the sandbox's first hour: some tasks overdue,
   * one due today, some next week). Without it the dates are fixed (tests rely on them).
   */
  today?: string;
  /** The workspace's name (default "Demo workspace" and a random suffix). */
  name?: string;
}

export function seedDemoWorkspace(target: string | Db, options: SeedOptions = {}): SeedResult {
  const db = typeof target === 'string' ? openDatabase(target) : target;
  try {
    return transact(db, () => seed(db, options));
  } finally {
    if (typeof target === 'string') db.close();
  }
}

/** `fixed`, or the day `offset` days from `today` when the seed is relative. */
function dayOf(today: string | undefined, offset: number, fixed: string): string {
  if (!today) return fixed;
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
}

function seed(db: Db, options: SeedOptions): SeedResult {
  const day = (offset: number, fixed: string) => dayOf(options.today, offset, fixed);
  const workspace = createWorkspace(
    db,
    options.name ?? `Demo workspace ${Math.random().toString(36).slice(2, 6)}`,
  );
  const users = DEMO_USERS.map((u) => {
    const first = u.name.split(' ')[0].toLowerCase();
    const id = createUser(db, workspace.id, {
      ...u,
      phone: '+1 555 0100',
      profilePhoto: `https://example.com/avatars/${first}.png`,
    });
    return { id, name: u.name, email: u.email };
  });
  const [alice, bob, carol, dan, erin] = users;
  const apiKey = createApiKey(db, workspace.id, alice.id);
  const keyed = users.map((u) => ({
    ...u,
    apiKey: u === alice ? apiKey : createApiKey(db, workspace.id, u.id),
  }));
  const caller: Caller = {
    workspaceId: workspace.id,
    workspaceName: workspace.name,
    userId: alice.id,
  };

  const customers = [
    {
      companyName: 'Acme Corp',
      firstName: 'Wile',
      lastName: 'Coyote',
      email: 'wile@acme.example',
      phone: '+1 555 0111',
      address: '1 Desert Road, Tucson AZ',
      clients: [
        { name: 'Road Runner', email: 'runner@acme.example' },
        { name: 'Marvin Martian', email: 'marvin@acme.example' },
      ],
    },
    {
      companyName: 'Globex',
      firstName: 'Hank',
      lastName: 'Scorpio',
      email: 'hank@globex.example',
      phone: '+1 555 0122',
      address: '42 Cypress Creek, Springfield',
      clients: [{ name: 'Frank Grimes', email: 'frank@globex.example' }],
    },
  ].map((c) => ({ customerId: createCustomer(db, workspace.id, c), companyName: c.companyName }));

  const website = insertProject(db, caller, {
    name: 'Website relaunch',
    description: 'New marketing site for Acme Corp.',
    customerId: customers[0].customerId,
    startDate: day(-45, '2026-01-05'),
    dueDate: day(120, '2026-06-30'),
    features: { priority: true, defaultPriority: 3, estimate: true, milestone: true, groups: true },
    groups: ['Design', 'Build', 'Launch'],
    labels: [
      { name: 'Bug', color: '#e5484d' },
      { name: 'Content', color: '#3e63dd' },
    ],
  });
  const onboarding = insertProject(db, caller, {
    name: 'Customer onboarding',
    description: 'Getting Globex up and running.',
    customerId: customers[1].customerId,
    startDate: day(-20, '2026-02-01'),
    features: {
      priority: true,
      defaultPriority: 0,
      estimate: false,
      milestone: false,
      groups: true,
    },
    groups: ['Backlog', 'This week'],
    labels: [{ name: 'Blocked', color: '#f76b15' }],
  });
  const [design, build, launch] = groupRows(db, website);
  const [backlog, thisWeek] = groupRows(db, onboarding);
  const quiet = { emitEvent: false };
  const tasks = [
    {
      projectId: website,
      name: 'Draft the sitemap',
      groupId: design.id,
      taskUsers: [bob.id],
      priority: 2,
      dueDate: day(-3, '2026-02-15'),
      estimateTime: 6,
    },
    {
      projectId: website,
      name: 'Design the home page',
      groupId: design.id,
      taskUsers: [carol.id, bob.id],
      dueDate: day(0, '2026-03-01'),
      estimateTime: 16,
    },
    {
      projectId: website,
      name: 'Set up the CMS',
      groupId: build.id,
      taskUsers: [dan.id],
      priority: 1,
      estimateTime: 8,
      ...(options.today ? { dueDate: day(7, '') } : {}),
    },
    {
      projectId: website,
      name: 'Plan the launch announcement',
      groupId: launch.id,
      taskUsers: [erin.id],
      milestoneId: 1,
      ...(options.today ? { dueDate: day(10, '') } : {}),
    },
    {
      projectId: onboarding,
      name: 'Kick-off call with Globex',
      groupId: thisWeek.id,
      taskUsers: [alice.id, erin.id],
      priority: 2,
      dueDate: day(1, '2026-02-03'),
    },
    {
      projectId: onboarding,
      name: 'Import customer data',
      groupId: backlog.id,
      taskUsers: [dan.id],
    },
  ];
  for (const t of tasks) createTask(db, caller, t, quiet);

  return {
    apiKey,
    workspaceId: workspace.id,
    workspaceName: workspace.name,
    users: keyed,
    customers,
    projects: [website, onboarding].map((id) => ({
      projectId: id,
      projectName: id === website ? 'Website relaunch' : 'Customer onboarding',
      groups: groupRows(db, id).map((g) => ({ groupId: g.id, groupName: g.name })),
    })),
  };
}
