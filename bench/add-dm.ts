/**
 * `/work add` → assignment DM on a small and on a large project, in one run: the real app
 * (HTTP mode, embedded service, fake Slack Web API), one channel linked to the demo's
 * 4-task project and one to a project of --tasks tasks (each with two of the five demo
 * users assigned). The two channels take turns; each round a signed `/work add … @person`
 * goes to each, and the time from sending the command to the person's DM reaching Slack is
 * recorded. Prints p50/p99 per project and the ratio large / small (the aim: ≤ 1.2×).
 *
 *   npm run bench:add-dm [-- --tasks 10000 --rounds 40]
 */
import { parseArgs } from 'node:util';
import { insertProject } from '../src/service/projects.js';
import { createTask } from '../src/service/task-create.js';
import { startHarness } from '../test/support/harness.js';
import { dmCalls } from '../test/support/notify-slack.js';

const { values } = parseArgs({
  options: {
    tasks: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '40' },
  },
});
const TASKS = Number(values.tasks);
const ROUNDS = Number(values.rounds);

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
  return { p50: at(50), p99: at(99) };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

async function main() {
  const h = await startHarness({ connect: true });
  try {
    h.logger.setLevel('error' as never); // measure the app, not debug logging
    const db = h.service.db;
    const caller = {
      workspaceId: h.seed.workspaceId,
      workspaceName: h.seed.workspaceName,
      userId: h.seed.users[0].id,
    };
    const small = h.seed.projects[0].projectId;
    const big = insertProject(db, caller, { name: 'Ten thousand' });
    const users = h.seed.users.map((u) => u.id);
    db.transaction(() => {
      for (let i = 0; i < TASKS; i++) {
        createTask(
          db,
          caller,
          {
            projectId: big,
            name: `Task ${i + 1}`,
            taskUsers: [users[i % users.length], users[(i + 2) % users.length]],
          },
          { emitEvent: false },
        );
      }
    })();
    const smallCount = (await h.work.listTasks({ projectId: small })).length;
    await h.worklink.store.channelProjects.link(h.teamId, 'C_SMALL', small, h.users.alice.id);
    await h.worklink.store.channelProjects.link(h.teamId, 'C_BIG', big, h.users.alice.id);
    // Four people take turns, two per round, rounds 600 ms apart: each person's DM channel
    // gets a DM every 1.2 s, so its one-a-second pacing never delays one.
    const people = [h.users.bob, h.users.carol, h.users.dan, h.users.erin];
    const ROUND_MS = 600;

    const addToDm = async (channelId: string, n: number): Promise<number> => {
      const person = people[n % people.length];
      const title = `Bench ${channelId} ${n}`;
      const started = performance.now();
      const res = await h.slack.slashCommand(`add ${title} @${person.email}`, { channelId });
      if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
      await h.waitFor(
        () => dmCalls(h.fake).some((c) => String(c.body.text ?? '').includes(title)),
        { timeoutMs: 30_000, intervalMs: 1 },
      );
      return performance.now() - started;
    };

    // Warm-up (JIT, users cache, e-mail lookups), not measured.
    for (let i = 0; i < 8; i++) {
      const started = performance.now();
      await addToDm('C_SMALL', 2 * i);
      await addToDm('C_BIG', 2 * i + 1);
      await pause(ROUND_MS - (performance.now() - started));
    }
    const samples: Record<string, number[]> = { C_SMALL: [], C_BIG: [] };
    for (let r = 0; r < ROUNDS; r++) {
      const started = performance.now();
      samples.C_SMALL.push(await addToDm('C_SMALL', 2 * r));
      samples.C_BIG.push(await addToDm('C_BIG', 2 * r + 1));
      await pause(ROUND_MS - (performance.now() - started));
    }
    const s = stats(samples.C_SMALL);
    const b = stats(samples.C_BIG);
    console.log(`/work add → DM, ${ROUNDS} rounds, one command at a time:`);
    console.log(
      `  ${String(smallCount).padStart(5)}-task project  p50 ${s.p50.toFixed(1)} ms  p99 ${s.p99.toFixed(1)} ms`,
    );
    console.log(
      `  ${String(TASKS).padStart(5)}-task project  p50 ${b.p50.toFixed(1)} ms  p99 ${b.p99.toFixed(1)} ms`,
    );
    console.log(`  large / small           p50 ×${(b.p50 / s.p50).toFixed(2)} (aim ≤ 1.2)`);
  } finally {
    await h.stop();
  }
}

await main();
