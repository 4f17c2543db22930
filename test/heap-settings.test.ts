/**
 * `worklink start`'s heap setting: V8's old generation grows by 50 % unless the operator put
 * their own --heap-growing-percent on node's command line (docs/scaling.md).
 */
import { describe, expect, it } from 'vitest';
import { applyHeapSettings } from '../src/heap-settings.js';

describe('heap settings', () => {
  it('sets the growing percent when node was started without one', () => {
    const set: string[] = [];
    expect(applyHeapSettings(['--enable-source-maps'], (f) => set.push(f))).toEqual([
      '--heap-growing-percent=50',
    ]);
    expect(set).toEqual(['--heap-growing-percent=50']);
  });

  it("keeps the operator's own, in either spelling", () => {
    for (const own of ['--heap-growing-percent=100', '--heap_growing_percent=20']) {
      const set: string[] = [];
      expect(applyHeapSettings([own], (f) => set.push(f))).toEqual([]);
      expect(set).toEqual([]);
    }
  });
});
