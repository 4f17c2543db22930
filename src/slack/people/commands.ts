/**
 * Who gets the assignment DMs: `/work link @slack-user <service e-mail>` (admins) matches a
 * service user to a Slack user whose e-mail differs, `/work unlink @slack-user` removes
 * that, `/work me` shows one's own match. Also the notifications section of `/work status`.
 * (The notifications themselves — outbox worker, POST /work/events, the embedded service's
 * subscription — are a long-lived part: src/slack/notify/notifications.ts.)
 */
import type { Subcommand } from '../commands/router.js';
import type { StatusSection } from '../connection/commands.js';
import { errMessage } from '../context/error-replies.js';
import { requireAdmin } from '../context/permissions.js';
import { serviceUserIdOf } from '../context/service-user.js';
import type { WorkContext } from '../context/work-context.js';
import { esc } from '../format/text.js';
import { howYouAct } from '../identity/me.js';
import { outboxStatusText } from '../notify/outbox-status.js';

/** `<@U123|bob>` or `<@U123>` (slash command text is escaped: see manifest.yml). */
const MENTION = /^<@([UW][A-Z0-9_]+)(?:\|[^>]*)?>$/;
/** Slack turns typed addresses into `<mailto:a@b.c|a@b.c>`. */
const MAILTO = /^<mailto:([^|>]+)(?:\|[^>]*)?>$/;
const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

export function parseMention(word: string | undefined): string | undefined {
  return word ? MENTION.exec(word)?.[1] : undefined;
}

export function parseEmail(word: string | undefined): string | undefined {
  if (!word) return undefined;
  const address = (MAILTO.exec(word)?.[1] ?? word).trim().toLowerCase();
  return EMAIL.test(address) ? address : undefined;
}

/** Admins and owners only; undefined when allowed, else the sentence to answer. */
async function adminProblem(ctx: WorkContext, verb: string): Promise<string | undefined> {
  const permission = await requireAdmin(
    ctx,
    `Sorry, only Slack workspace admins and owners can ${verb}. Please ask one of them.`,
  );
  return permission.allowed ? undefined : permission.message;
}

const linkCommand: Subcommand = {
  name: 'link',
  adminOnly: true,
  group: 'Notifications',
  usage: 'link @slack-user <service e-mail>',
  example: 'link @bob bob.brown@example.com',
  summary: 'send the task DMs of a service user to this Slack user (admins)',
  async run(ctx, args) {
    const slackUserId = parseMention(args.words[0]);
    const email = parseEmail(args.words[1]);
    if (!slackUserId || !email || args.words.length > 2) {
      await ctx.reply(
        'Usage: `/work link @slack-user <service e-mail>`, e.g. `/work link @bob bob.brown@example.com`. Nothing was linked.',
      );
      return;
    }
    const refused = await adminProblem(ctx, 'link accounts');
    if (refused) {
      await ctx.reply(refused);
      return;
    }
    const { directory } = ctx.deps;
    directory.forgetUsers(ctx.teamId);
    const users = await directory.usersOf(ctx.teamId, ctx.work);
    const serviceUser = [...users.values()].find((u) => u.email?.toLowerCase() === email);
    const workspace = ctx.connection?.workspaceName ?? 'the work-management workspace';
    if (!serviceUser) {
      await ctx.reply(
        `No user in *${esc(workspace)}* has the e-mail ${email}. Nothing was linked.`,
      );
      return;
    }
    const previous = await ctx.store.userLinks.link({
      teamId: ctx.teamId,
      serviceEmail: email,
      slackUserId,
      linkedBy: ctx.userId,
    });
    const name = serviceUser.name ? `*${esc(serviceUser.name)}* (${email})` : email;
    const replaced = previous && previous !== slackUserId ? ` (instead of <@${previous}>)` : '';
    ctx.logger.info(`Team ${ctx.teamId}: ${ctx.userId} linked a service user to ${slackUserId}.`);
    await ctx.reply(
      `Linked ${name} to <@${slackUserId}>${replaced}: tasks assigned to ${name} in *${esc(workspace)}* are now announced to <@${slackUserId}> by DM.`,
    );
  },
};

const unlinkCommand: Subcommand = {
  name: 'unlink',
  adminOnly: true,
  group: 'Notifications',
  usage: 'unlink @slack-user',
  example: 'unlink @bob',
  summary: 'remove the links made with `/work link` for this Slack user (admins)',
  needsConnection: false,
  async run(ctx, args) {
    const slackUserId = parseMention(args.words[0]);
    if (!slackUserId || args.words.length > 1) {
      await ctx.reply('Usage: `/work unlink @slack-user`. Nothing was changed.');
      return;
    }
    const refused = await adminProblem(ctx, 'unlink accounts');
    if (refused) {
      await ctx.reply(refused);
      return;
    }
    const emails = await ctx.store.userLinks.unlinkSlackUser(ctx.teamId, slackUserId);
    await ctx.reply(
      emails.length
        ? `Removed the link of <@${slackUserId}> to ${emails.join(', ')}. Their task DMs now follow their Slack e-mail again.`
        : `<@${slackUserId}> had no link, so nothing was changed.`,
    );
  },
};

const meCommand: Subcommand = {
  name: 'me',
  group: 'Notifications',
  usage: 'me',
  example: 'me',
  summary: 'show how you act in the service and which service user you get task DMs for',
  async run(ctx) {
    // First how this person acts (own key, the workspace's connection, or read only).
    const acting = await howYouAct(ctx);
    const reply = (text: string) => ctx.reply(`${acting}\n${text}`);
    const workspace = esc(ctx.connection?.workspaceName ?? 'the service');
    const users = await ctx.deps.directory.usersOf(ctx.teamId, ctx.work);
    const byEmail = (email: string) =>
      [...users.values()].find((u) => u.email?.toLowerCase() === email.toLowerCase());
    const describe = (email: string) => {
      const u = byEmail(email);
      return u?.name ? `*${esc(u.name)}* (${email})` : email;
    };
    const links = await ctx.store.userLinks.bySlackUser(ctx.teamId, ctx.userId);
    const tail =
      'You get a DM when a task there is assigned to you (not for tasks you create yourself).';
    if (await ctx.store.personalKeys.info(ctx.teamId, ctx.userId)) {
      // Your own key's user is who you are in the service (links and e-mail come after it).
      await reply(`${tail.replace('there ', '')}`);
      return;
    }
    if (links.length > 0) {
      const who = links.map((l) => describe(l.serviceEmail)).join(' and ');
      await reply(`You are ${who} in *${workspace}*, linked by <@${links[0].linkedBy}>. ${tail}`);
      return;
    }
    let email: string | undefined;
    try {
      email = (await ctx.deps.users.get(ctx.slack, ctx.teamId, ctx.userId)).email;
    } catch (e) {
      await reply(
        `Worklink could not read your Slack profile (${errMessage(e)}). Please try again.`,
      );
      return;
    }
    const linkedElsewhere = email
      ? await ctx.store.userLinks.byEmail(ctx.teamId, email)
      : undefined;
    if (email && byEmail(email) && !linkedElsewhere) {
      await reply(
        `You are ${describe(email)} in *${workspace}*, matched by your Slack e-mail. ${tail}`,
      );
      return;
    }
    const why = !email
      ? 'Slack does not share your e-mail with Worklink'
      : linkedElsewhere
        ? `${email} is linked to <@${linkedElsewhere.slackUserId}>`
        : `no user in *${workspace}* has your Slack e-mail (${email})`;
    await reply(
      `You get no task DMs yet: ${why}. An admin can link you with \`/work link @you <service e-mail>\`.`,
    );
  },
};

/**
 * The notifications lines of `/work status`: the outbox's figures. The failures name people
 * (names, e-mails): admins see everyone's, a member only their own.
 */
export const outboxStatusSection: StatusSection = async (ctx) => {
  const admin = (await requireAdmin(ctx, '')).allowed;
  if (admin) {
    return outboxStatusText(
      await ctx.store.outbox.summary(ctx.teamId, 5),
      await ctx.userTimeZone(),
    );
  }
  const summary = await ctx.store.outbox.summary(ctx.teamId, 50);
  const me = await serviceUserIdOf(ctx, ctx.userId);
  const mine = summary.recentFailures.filter(
    (r) => r.slackUserId === ctx.userId || (me !== undefined && r.serviceUserId === me),
  );
  return outboxStatusText(
    { ...summary, recentFailures: mine.slice(0, 5) },
    await ctx.userTimeZone(),
    'yours',
  );
};

/** `/work link`, `unlink` and `me`. */
export const peopleCommands: Subcommand[] = [linkCommand, unlinkCommand, meCommand];
