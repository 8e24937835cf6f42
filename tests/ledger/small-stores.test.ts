import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/ledger/database.js';
import { AlreadyRecordedError, Ledger, LedgerWriteError } from '../../src/ledger/ledger.js';
import { readMigrations } from '../../src/ledger/migrate.js';
import { SAVED_QUERY_TTL_MS } from '../../src/ledger/saved-queries.js';
import { tmpDb, tmpDir } from '../helpers/tmp.js';

// The ledger's small stores (issue 18: mutation testing): saved queries and their day, per-server
// settings, and the reading of migration files.
let ledger: Ledger;
afterEach(() => ledger?.close());

describe('saved /history queries', () => {
  const T0 = '2026-11-30T12:00:00.000Z';
  const at = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();
  const query = (id: string, created_at: string, guild_id = 'g1') => ({
    id,
    guild_id,
    channel_id: 'c1',
    user_id: 'u1',
    params: { scope: 'channel', user: 'u2' },
    created_at,
  });
  const stored = () => (ledger.db.prepare('SELECT id FROM saved_queries ORDER BY id').all() as { id: string }[]).map((r) => r.id);

  it('reads back in its own server only, with its filters', () => {
    ledger = Ledger.open(tmpDb());
    ledger.queries.save(query('q1', T0));
    expect(ledger.queries.get('g1', 'q1', T0)).toEqual(query('q1', T0));
    expect(ledger.queries.get('g2', 'q1', T0)).toBeUndefined();
    expect(ledger.queries.get('g1', 'nope', T0)).toBeUndefined();
  });

  it('lasts exactly a day: at 24 h it still pages, a millisecond later it has expired', () => {
    ledger = Ledger.open(tmpDb());
    ledger.queries.save(query('q1', T0));
    expect(SAVED_QUERY_TTL_MS).toBe(86_400_000);
    expect(ledger.queries.get('g1', 'q1', at(SAVED_QUERY_TTL_MS))).toMatchObject({ id: 'q1' });
    expect(ledger.queries.get('g1', 'q1', at(SAVED_QUERY_TTL_MS + 1))).toBe('expired');
  });

  it('saving forgets every query older than a day, in any server, and keeps the rest', () => {
    ledger = Ledger.open(tmpDb());
    ledger.queries.save(query('old', T0, 'g2'));
    ledger.queries.save(query('edge', at(1)));
    ledger.queries.save(query('new', at(SAVED_QUERY_TTL_MS + 1)));
    expect(stored()).toEqual(['edge', 'new']);
  });
});

describe('per-server settings', () => {
  it('default to none; the GM role and channel are set apart, and can be cleared', () => {
    ledger = Ledger.open(tmpDb());
    expect(ledger.settings.get('g1')).toEqual({ gm_role_id: null, gm_channel_id: null });
    ledger.settings.setGmRole('g1', 'r1');
    ledger.settings.setGmChannel('g1', 'c9');
    expect(ledger.settings.get('g1')).toEqual({ gm_role_id: 'r1', gm_channel_id: 'c9' });
    ledger.settings.setGmRole('g1', 'r2');
    expect(ledger.settings.get('g1')).toEqual({ gm_role_id: 'r2', gm_channel_id: 'c9' });
    ledger.settings.setGmChannel('g1', null);
    expect(ledger.settings.get('g1')).toEqual({ gm_role_id: 'r2', gm_channel_id: null });
    expect(ledger.settings.get('g2')).toEqual({ gm_role_id: null, gm_channel_id: null });
  });
});

describe('migration files', () => {
  const dirWith = (files: Record<string, string>) => {
    const dir = tmpDir();
    for (const [f, sql] of Object.entries(files)) fs.writeFileSync(path.join(dir, f), sql);
    return dir;
  };

  it('read in number order; other files are ignored', () => {
    const dir = dirWith({ '002_second.sql': 'B', '001_first.sql': 'A', 'README.md': 'x', '003_Bad-Name.sql': 'C', '04_short.sql': 'D' });
    expect(readMigrations(dir)).toEqual([
      { version: 1, name: 'first', sql: 'A' },
      { version: 2, name: 'second', sql: 'B' },
    ]);
  });

  it('a gap in the numbers is refused, naming the number found', () => {
    expect(() => readMigrations(dirWith({ '001_a.sql': 'A', '003_c.sql': 'C' }))).toThrow('migrations must be numbered 001, 002, … without gaps (found 3)');
    expect(() => readMigrations(dirWith({ '002_b.sql': 'B' }))).toThrow('(found 2)');
  });

  it("the project's own migrations are numbered from 1 without gaps", () => {
    const all = readMigrations();
    expect(all.map((m) => m.version)).toEqual(all.map((_, i) => i + 1));
    expect(all.length).toBeGreaterThanOrEqual(6);
  });
});

describe('ledger write errors', () => {
  const roll = (over: Record<string, unknown> = {}) => ({
    guildId: 'g1',
    channelId: 'c1',
    userId: 'u1',
    userName: 'U',
    command: 'rally',
    system: 'hearts-of-tin',
    kind: 'roll',
    input: {},
    dice: [4],
    outcome: { steps: [] },
    result: 'rally',
    ...over,
  });

  it('a once-key already on record is refused as already recorded, and nothing is written', () => {
    ledger = Ledger.open(tmpDb());
    ledger.append(roll({ onceKey: 'commander:r1' }));
    expect(() => ledger.append(roll({ onceKey: 'commander:r1' }))).toThrow(new AlreadyRecordedError('commander:r1 was already recorded'));
    expect(ledger.count('g1')).toBe(1);
  });

  it("SQLite's refusal of an append becomes a LedgerWriteError naming it, and so does any other failure, with its cause", () => {
    const file = tmpDb();
    Ledger.open(file).close();
    const db = openDatabase(file, { readonly: true });
    ledger = new Ledger(db);
    const err = (() => {
      try {
        ledger.append(roll());
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err).toBeInstanceOf(LedgerWriteError);
    expect(err?.message).toBe('the ledger could not record the roll: attempt to write a readonly database');
    ledger.close();
    // Any failure of an append reaches the player as "could not be recorded", with its cause kept for the log.
    const closed = (() => {
      try {
        ledger.append(roll());
      } catch (e) {
        return e as Error;
      }
    })();
    expect(closed).toBeInstanceOf(LedgerWriteError);
    expect(closed?.cause).toBeInstanceOf(TypeError);
    ledger.close();
  });

  it('a read-only connection needs the file to exist, and refuses writes', () => {
    expect(() => openDatabase(path.join(tmpDir(), 'missing.db'), { readonly: true })).toThrow();
  });

  it('game rolls are numbered from 1 per game', () => {
    ledger = Ledger.open(tmpDb());
    expect(ledger.nextGameSeq('game1')).toBe(1);
    ledger.append(roll({ gameId: 'game1', gameSeq: 1, turn: 1, phase: null }));
    ledger.append(roll({ gameId: 'game2', gameSeq: 1, turn: 1, phase: null }));
    expect(ledger.nextGameSeq('game1')).toBe(2);
    expect(ledger.nextGameSeq('game3')).toBe(1);
  });
});
