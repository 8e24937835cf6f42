import { describe, expect, it, vi } from 'vitest';
import { WhenQuiet } from '../../src/discord/when-quiet.js';

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

describe('work that waits for a quiet bot (message links over HTTP)', () => {
  it('waits while the bot is busy and starts when it is quiet again', async () => {
    let busy = true;
    const quiet = new WhenQuiet(() => busy, { maxWaitMs: 60_000, checkMs: 5 });
    const ran: string[] = [];
    const done = quiet.run(async () => ran.push('link'));
    await tick(30);
    expect(ran).toEqual([]);
    busy = false;
    quiet.pump();
    await done;
    expect(ran).toEqual(['link']);
  });

  it('starts overdue work even while the bot stays busy', async () => {
    // The clock is the test's: overdue at exactly maxWaitMs, however busy the machine.
    vi.useFakeTimers();
    try {
      const quiet = new WhenQuiet(() => true, { maxWaitMs: 40, checkMs: 5 });
      let ran = false;
      const done = quiet.run(async () => {
        ran = true;
      });
      await vi.advanceTimersByTimeAsync(35);
      expect(ran).toBe(false);
      await vi.advanceTimersByTimeAsync(5);
      expect(ran).toBe(true);
      await done;
      expect(quiet.size).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('runs at most `concurrency` at once, then the rest as each ends; a failure frees its place', async () => {
    const quiet = new WhenQuiet(() => false, { concurrency: 2 });
    let now = 0;
    let most = 0;
    const job = (fail: boolean) => async () => {
      most = Math.max(most, ++now);
      await tick(5);
      now--;
      if (fail) throw new Error('no message');
    };
    const results = await Promise.allSettled([true, false, false, true, false].map((f) => quiet.run(job(f))));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(most).toBe(2);
    expect(quiet.size).toBe(0);
  });
});
