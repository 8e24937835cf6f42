import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/ledger/ledger.js';
import { PLAYER_ROLLS_SQL } from '../../src/ledger/common-sql.js';
import { tmpDb } from '../helpers/tmp.js';

// No statement the ledger prepares may read every row of a big table. Every statement is
// caught as the ledger prepares it (the whole set, not a list kept by hand), then explained with
// null parameters: a plan that SCANs rolls, roster units or channel_units outright fails.
const prepared: string[] = [];
const realPrepare = Database.prototype.prepare;
Database.prototype.prepare = function (this: Database.Database, source: string) {
  prepared.push(source);
  return realPrepare.call(this, source);
} as typeof realPrepare;
afterAll(() => {
  Database.prototype.prepare = realPrepare;
});

/** The plan of a statement with every parameter null. */
function planOf(db: Database.Database, sql: string): string[] {
  const explain = db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  const named = [...new Set([...sql.matchAll(/[@:$](\w+)/g)].map((m) => m[1]!))];
  const positional = (sql.match(/\?/g) ?? []).length;
  const args: unknown[] = named.length ? [Object.fromEntries(named.map((n) => [n, null]))] : Array(positional).fill(null);
  return (explain.all(...args) as { detail: string }[]).map((r) => r.detail);
}

describe('every statement the ledger prepares', () => {
  it('is served by an index: no full scan of rolls, units, channel_units, games or dice_tallies', () => {
    const ledger = Ledger.open(tmpDb());
    // The history's per-filter statements are prepared on use: ask for each shape once.
    for (const f of [
      { guildId: 'g' },
      { guildId: 'g', channelId: 'c' },
      { guildId: 'g', userId: 'u' },
      { guildId: 'g', channelId: 'c', userId: 'u' },
      { guildId: 'g', system: 's', kinds: 'all' as const },
    ])
      ledger.history.page(f, 10, 0);
    // So are the dice report's sums: a channel's and a server's, grouped and not.
    for (const f of [{ guildId: 'g' }, { guildId: 'g', channelId: 'c', sinceHour: '2026-12-01T00' }])
      for (const by of [undefined, 'user'] as const) ledger.tallySums(f, by);
    const sources = [...new Set(prepared)].filter((s) => /^\s*(SELECT|UPDATE|DELETE|INSERT)/i.test(s) && !/^\s*EXPLAIN/i.test(s));
    expect(sources.length).toBeGreaterThan(30);
    const scans = sources.flatMap((sql) =>
      planOf(ledger.db, sql)
        .filter((d) => /^SCAN (rolls|units|channel_units|games|dice_tallies)\b/.test(d))
        .map((d) => `${d} ← ${sql.replace(/\s+/g, ' ').slice(0, 120)}`),
    );
    expect(scans).toEqual([]);
    ledger.close();
  });

  it("a game roll's count of the roller's earlier rolls reads only that player's rows of that game", () => {
    const ledger = Ledger.open(tmpDb());
    expect(planOf(ledger.db, PLAYER_ROLLS_SQL)).toEqual([
      expect.stringMatching(/^SEARCH rolls USING COVERING INDEX rolls_game_user \(game_id=\? AND user_id=\? AND kind=\?\)$/),
    ]);
    ledger.close();
  });
});
