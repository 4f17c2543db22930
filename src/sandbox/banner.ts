// The one block `npm start` prints in sandbox mode: where to go, who you are, what to type.
// No secrets: the API key stays in DATA_DIR/sandbox.json.

import { DEFAULT_USERS } from './workspace.js';

export interface Welcome {
  url: string;
  dataDir: string;
  teamName: string;
  /** The connected service workspace; undefined when not connected. */
  workspaceName?: string;
  /** The demo workspace was created by this start. */
  firstRun: boolean;
  /** False when WORK_API_URL points at another service (nothing seeded). */
  embeddedService: boolean;
  links: { channel: string; project: string }[];
}

export function welcomeText(w: Welcome): string {
  const me = DEFAULT_USERS.find((u) => u.isOwner) ?? DEFAULT_USERS[0];
  const others = DEFAULT_USERS.filter((u) => u !== me).map((u) => u.realName.split(' ')[0]);
  const othersText =
    others.length > 1 ? `${others.slice(0, -1).join(', ')} and ${others.at(-1)}` : others[0];
  const lines = [
    '',
    `  Worklink sandbox is ready — open ${w.url}`,
    '',
    `  You are ${me.realName} (${me.email}), admin of the "${w.teamName}" Slack workspace.`,
    `  Switch people with "You are" at the top left; ${othersText} get their DMs there.`,
  ];
  if (w.workspaceName) {
    lines.push(
      `  Connected to the demo work-management workspace "${w.workspaceName}"${w.firstRun ? ' (just created)' : ''}.`,
    );
    if (w.links.length > 0) {
      lines.push(
        `  Channel projects: ${w.links.map((l) => `#${l.channel} → ${l.project}`).join(', ')}.`,
      );
    }
    lines.push('', '  Start in #website: type  /work new  to create a task, or  /work help');
  } else if (!w.embeddedService) {
    lines.push(
      '',
      '  Worklink uses the service at WORK_API_URL: type  /work connect  with its key.',
    );
  } else {
    lines.push('', '  Not connected to a work-management workspace yet: type  /work connect');
  }
  lines.push('', `  Data: ${w.dataDir} (delete it to start over) · Stop: Ctrl+C`, '');
  return lines.join('\n');
}
