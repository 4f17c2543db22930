import { describe, expect, it } from 'vitest';
import { createActivityHub, type TaskActivity } from '../../src/activity/hub.js';

describe('task activity hub', () => {
  it('gives every listener each activity after the emitter has moved on', async () => {
    const hub = createActivityHub({ warn: () => {} });
    const seen: string[] = [];
    hub.on((team, a) => {
      seen.push(`1:${team}:${a.kind}:${a.taskId}`);
    });
    hub.on(async (team, a) => {
      await new Promise((r) => setTimeout(r, 5));
      seen.push(`2:${team}:${a.kind}:${a.taskId}`);
    });
    hub.emit('T1', { kind: 'completed', taskId: 'task-1', actor: { slackUserId: 'U1' } });
    // Nothing runs inside the emitter's turn.
    expect(seen).toEqual([]);
    await hub.idle();
    expect(seen.sort()).toEqual(['1:T1:completed:task-1', '2:T1:completed:task-1']);
  });

  it('never throws to the emitter; a failing listener is logged and the others still run', async () => {
    const warnings: string[] = [];
    const hub = createActivityHub({ warn: (m: string) => warnings.push(m) });
    const got: TaskActivity[] = [];
    hub.on(() => {
      throw new Error('boom');
    });
    hub.on(async () => {
      throw new Error('async boom');
    });
    hub.on((_t, a) => {
      got.push(a);
    });
    const activity: TaskActivity = { kind: 'commented', taskId: 'task-2', text: 'hi' };
    expect(() => hub.emit('T1', activity)).not.toThrow();
    await hub.idle();
    expect(got).toEqual([activity]);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('commented task-2');
  });

  it('emitting with no listener is a no-op', async () => {
    const hub = createActivityHub({ warn: () => {} });
    hub.emit('T1', { kind: 'reopened', taskId: 'x' });
    await hub.idle();
  });
});
