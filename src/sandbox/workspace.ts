// The sandbox's Slack workspace: who is in it and which channels exist. The people are the
// demo workspace's users (same e-mails), so users.lookupByEmail links them to service users.

export interface SandboxUserSpec {
  id: string;
  /** Slack handle, e.g. "alice". */
  name: string;
  realName: string;
  email: string;
  tz: string;
  isAdmin?: boolean;
  isOwner?: boolean;
  title?: string;
}

export interface SandboxChannelSpec {
  id: string;
  name: string;
  topic?: string;
}

export const DEFAULT_TEAM = {
  id: 'T0SANDBOX',
  name: 'Worklink Sandbox',
  domain: 'worklink-sandbox',
};

export const DEFAULT_USERS: readonly SandboxUserSpec[] = [
  {
    id: 'U0SBALICE',
    name: 'alice',
    realName: 'Alice Adams',
    email: 'alice@example.com',
    tz: 'America/New_York',
    isAdmin: true,
    isOwner: true,
    title: 'Head of Delivery',
  },
  {
    id: 'U0SBBOB',
    name: 'bob',
    realName: 'Bob Brown',
    email: 'bob@example.com',
    tz: 'Europe/Berlin',
    title: 'Web Developer',
  },
  {
    id: 'U0SBCAROL',
    name: 'carol',
    realName: 'Carol Chen',
    email: 'carol@example.com',
    tz: 'America/Los_Angeles',
    title: 'Designer',
  },
  {
    id: 'U0SBDAN',
    name: 'dan',
    realName: 'Dan Diaz',
    email: 'dan@example.com',
    tz: 'Asia/Tokyo',
    title: 'Account Manager',
  },
  {
    id: 'U0SBERIN',
    name: 'erin',
    realName: 'Erin Evans',
    email: 'erin@example.com',
    tz: 'Australia/Sydney',
    title: 'Support Lead',
  },
];

export const DEFAULT_CHANNELS: readonly SandboxChannelSpec[] = [
  { id: 'C0SBGENERAL', name: 'general', topic: 'Company-wide announcements' },
  { id: 'C0SBWEBSITE', name: 'website', topic: 'The website relaunch' },
  { id: 'C0SBONBOARD', name: 'onboarding', topic: 'New customer onboarding' },
];

/** The app's own identity in the sandbox workspace. */
export const DEFAULT_BOT = {
  appId: 'A0SBWORKLINK',
  botId: 'B0SBWORKLINK',
  botUserId: 'U0SBWORKLINK',
  name: 'worklink',
};

export interface TzInfo {
  tz: string;
  tz_label: string;
  tz_offset: number;
}

/** Slack's tz fields for a zone at a moment (offset in seconds, label like "Central European Time"). */
export function tzInfo(tz: string, at: Date = new Date()): TzInfo {
  const parts = (style: 'long' | 'longOffset') =>
    new Intl.DateTimeFormat('en-US', { timeZone: tz, timeZoneName: style }).formatToParts(at);
  const label = parts('long').find((p) => p.type === 'timeZoneName')?.value ?? tz;
  const offsetText = parts('longOffset').find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(offsetText);
  const offset = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60) : 0;
  return { tz, tz_label: label, tz_offset: offset };
}
