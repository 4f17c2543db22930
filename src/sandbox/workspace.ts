// The sandbox's Slack workspace: who is in it and which channels exist. The people are the
// demo workspace's users (same e-mails), so users.lookupByEmail links them to service users.

import { DEMO_USERS } from '../service/seed.js';

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
  /** A multi-channel (restricted) or single-channel (ultra restricted) guest. */
  isRestricted?: boolean;
  isUltraRestricted?: boolean;
  /** Another organisation's team (a Slack Connect person); default the workspace's. */
  teamId?: string;
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

type FirstWord<S extends string> = S extends `${infer F} ${string}` ? F : S;

/** A demo user's Slack handle: the first name, lower case ("alice"). */
export type DemoHandle = Lowercase<FirstWord<(typeof DEMO_USERS)[number]['name']>>;

/** Where a demo user sits in one Slack workspace: the parts that differ between workspaces. */
export interface DemoPlacement {
  id: string;
  tz: string;
  title?: string;
}

/**
 * The service's demo users as Slack users: names, e-mails and roles from the seed (so
 * users.lookupByEmail always links them), ids and time zones from `placed`. In seed order.
 */
export function demoSlackUsers(
  placed: Record<DemoHandle, DemoPlacement>,
): Record<DemoHandle, SandboxUserSpec> {
  const entries = DEMO_USERS.map((u): [DemoHandle, SandboxUserSpec] => {
    const handle = u.name.split(' ')[0].toLowerCase() as DemoHandle;
    const roles = 'isOwner' in u ? { isAdmin: u.isAdmin, isOwner: u.isOwner } : {};
    return [
      handle,
      { name: handle, realName: u.name, email: u.email, ...roles, ...placed[handle] },
    ];
  });
  return Object.fromEntries(entries) as Record<DemoHandle, SandboxUserSpec>;
}

export const DEFAULT_USERS: readonly SandboxUserSpec[] = Object.values(
  demoSlackUsers({
    alice: { id: 'U0SBALICE', tz: 'America/New_York', title: 'Head of Delivery' },
    bob: { id: 'U0SBBOB', tz: 'Europe/Berlin', title: 'Web Developer' },
    carol: { id: 'U0SBCAROL', tz: 'America/Los_Angeles', title: 'Designer' },
    dan: { id: 'U0SBDAN', tz: 'Asia/Tokyo', title: 'Account Manager' },
    erin: { id: 'U0SBERIN', tz: 'Australia/Sydney', title: 'Support Lead' },
  }),
);

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
