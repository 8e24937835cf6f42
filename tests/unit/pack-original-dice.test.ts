import { describe, expect, it } from 'vitest';
import { TallyCount, tallyOf, type TallySource } from '../../src/ledger/tally.js';
import { verdict } from '../../src/render/dice-report.js';
import { groupsOf } from '../../src/rules/dice/report.js';
import { RULE_SYSTEMS, SYSTEMS } from '../../src/rules/systems.js';

/**
 * The dice report files a built-in roll by the dice its system declares for its Original roll,
 * count and sides: a d10 system's fair rolls were filed as `1d6` and reported "unusual".
 */

const row = (system: string, dice: number[]): TallySource => ({
  guild_id: 'g1',
  channel_id: 'c1',
  game_id: null,
  user_id: 'u1',
  system,
  command: 'test',
  kind: 'roll',
  created_at: '2026-01-01T10:00:00.000Z',
  dice,
  outcome: {},
});

/** A system only this test has: its Original roll is one d10. */
const D10_SYSTEM = (system: string) => (system === 'd10-test' ? { count: 1, sides: 10 } : undefined);

describe('the dice report reads each system’s Original dice, count and sides', () => {
  it('every built-in system declares its Original roll’s count and sides', () => {
    for (const id of SYSTEMS) {
      const { count, sides } = RULE_SYSTEMS[id].originalDice;
      expect([Number.isInteger(count), sides >= 2]).toEqual([true, true]);
    }
    expect(tallyOf(row('asl', [3, 4, 6]))).toMatchObject({ shape: '2d6', total: 7 });
    expect(tallyOf(row('lightning-war', [1, 2, 3]))).toMatchObject({ shape: '3d6', total: 6 });
  });

  it('60 fair rolls of a d10 system are filed as 1d10, and not reported unusual', () => {
    const count = new TallyCount();
    // Each face six times, the extra dice of the row (a later roll that depends on the first) left out.
    for (let i = 0; i < 60; i++) count.add(tallyOf(row('d10-test', [(i % 10) + 1, 10]), D10_SYSTEM));
    const sums = count.entries().map((t) => ({ shape: t.shape, grp: '', total: t.total, n: t.n }));
    const [group, ...others] = groupsOf(sums);
    expect(others).toEqual([]);
    expect(group).toMatchObject({ shape: '1d10', n: 60, mean: 5.5 });
    expect(group!.test!.p).toBeGreaterThan(0.5);
    expect(verdict(group!)).not.toMatch(/unusual|unlikely/);
  });
});
