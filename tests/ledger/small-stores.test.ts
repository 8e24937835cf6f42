import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChainWalker, canonicalJson, storedRowHash } from '../../src/ledger/chain.js';
import type { RawRow } from '../../src/ledger/rows.js';
import { openDatabase } from '../../src/ledger/database.js';
import { AlreadyRecordedError, LedgerWriteError } from '../../src/ledger/errors.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { DuplicateUnitError } from '../../src/ledger/roster.js';
import { readMigrations } from '../../src/ledger/migrate.js';
import { SAVED_QUERY_TTL_MS } from '../../src/ledger/saved-queries.js';
import { ledgerEntry, testGame } from '../helpers/ledger.js';
import { tmpDb, tmpDir } from '../helpers/tmp.js';

// The ledger's small stores (as mutation testing asked): saved queries and their day, per-server
// settings, and the reading of migration files.
let ledger: Ledger;
afterEach(() => ledger?.close());
const roll = (over: Record<string, unknown> = {}) => ledgerEntry(over);

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
    expect(ledger.settings.get('g1')).toEqual({ gm_role_id: null, gm_channel_id: null, log_channel_id: null });
    ledger.settings.setGmRole('g1', 'r1');
    ledger.settings.setGmChannel('g1', 'c9');
    expect(ledger.settings.get('g1')).toEqual({ gm_role_id: 'r1', gm_channel_id: 'c9', log_channel_id: null });
    ledger.settings.setGmRole('g1', 'r2');
    expect(ledger.settings.get('g1')).toEqual({ gm_role_id: 'r2', gm_channel_id: 'c9', log_channel_id: null });
    ledger.settings.setGmChannel('g1', null);
    expect(ledger.settings.get('g1')).toEqual({ gm_role_id: 'r2', gm_channel_id: null, log_channel_id: null });
    expect(ledger.settings.get('g2')).toEqual({ gm_role_id: null, gm_channel_id: null, log_channel_id: null });
    // The roll log channel, set and cleared apart from the others.
    ledger.settings.setLogChannel('g1', 'log1');
    expect(ledger.settings.get('g1')).toEqual({ gm_role_id: 'r2', gm_channel_id: null, log_channel_id: 'log1' });
    ledger.settings.setLogChannel('g1', null);
    expect(ledger.settings.get('g1').log_channel_id).toBeNull();
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

// What mutation testing found free to change in the ledger's error handling, its connections and
// the chain walker.
describe('ledger errors, connections and the chain walker, exactly', () => {
  const caught = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return e as Error;
    }
    throw new Error('expected a throw');
  };

  it('only the once-key index makes a refusal "already recorded"; another unique index or constraint is a write error', () => {
    ledger = Ledger.open(tmpDb());
    ledger.db.exec('CREATE UNIQUE INDEX test_one_per_channel ON rolls (channel_id)');
    ledger.append(roll({ onceKey: 'k1' }));
    const other = caught(() => ledger.append(roll({ onceKey: 'k2' })));
    expect(other).toBeInstanceOf(LedgerWriteError);
    expect(other.message).toBe('the ledger could not record the roll: UNIQUE constraint failed: rolls.channel_id');
    // A trigger's refusal that merely mentions once_key is not the once-key index either.
    ledger.db.exec("CREATE TRIGGER test_refuse BEFORE INSERT ON rolls WHEN NEW.channel_id = 'c2' BEGIN SELECT RAISE(ABORT, 'once_key'); END");
    const trigger = caught(() => ledger.append(roll({ channelId: 'c2', onceKey: 'k3' })));
    expect(trigger).toBeInstanceOf(LedgerWriteError);
    expect(trigger.message).toBe('the ledger could not record the roll: once_key');
    // The real thing: the same once-key again, refused by its index, nothing written.
    expect(caught(() => ledger.append(roll({ channelId: 'c3', onceKey: 'k1' })))).toEqual(new AlreadyRecordedError('k1 was already recorded'));
    expect(ledger.count('g1')).toBe(1);
  });

  it('a transaction that cannot take the write lock is a write error, and its work never runs', async () => {
    const file = tmpDb();
    ledger = Ledger.open(file, { busyTimeoutMs: 20 });
    const other = openDatabase(file);
    other.exec('BEGIN IMMEDIATE');
    let ran = false;
    const err = await ledger
      .transaction(() => {
        ran = true;
      })
      .catch((e: Error) => e);
    other.exec('ROLLBACK');
    other.close();
    expect(err).toBeInstanceOf(LedgerWriteError);
    expect((err as Error).message).toBe('the ledger could not record the change: database is locked');
    expect(ran).toBe(false);
    // The caller's own error passes through unchanged after the rollback.
    const mine = new RangeError('mine');
    await expect(ledger.transaction(() => Promise.reject(mine))).rejects.toBe(mine);
    expect(ledger.db.inTransaction).toBe(false);
  });

  it('a file that cannot be migrated is closed again: no connection is left holding it', () => {
    const file = tmpDb();
    const raw = openDatabase(file);
    raw.exec('CREATE TABLE rolls (nonsense TEXT)');
    raw.close();
    expect(() => Ledger.open(file)).toThrow();
    // An open WAL connection keeps its -wal file; the last close removes it.
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
  });

  it('every connection takes the busy timeout it is given, or 5 s; a read-only one refuses writes', () => {
    const file = tmpDb();
    Ledger.open(file).close();
    const timeout = (db: ReturnType<typeof openDatabase>) => {
      const t = db.pragma('busy_timeout', { simple: true });
      db.close();
      return t;
    };
    expect(timeout(openDatabase(file))).toBe(5000);
    expect(timeout(openDatabase(file, { busyTimeoutMs: 123 }))).toBe(123);
    expect(timeout(openDatabase(file, { readonly: true }))).toBe(5000);
    expect(timeout(openDatabase(file, { readonly: true, busyTimeoutMs: 77 }))).toBe(77);
    const reader = openDatabase(file, { readonly: true });
    expect(() => reader.exec('CREATE TABLE x (a)')).toThrow('attempt to write a readonly database');
    reader.close();
  });

  it('a ledger in a folder that does not exist yet creates the folder', () => {
    const file = path.join(tmpDir(), 'a', 'b', 'ledger.db');
    ledger = Ledger.open(file);
    ledger.append(roll());
    expect(fs.existsSync(file)).toBe(true);
  });

  it('migration files are applied in number order whatever order the folder lists them in', () => {
    const dir = tmpDir();
    fs.writeFileSync(path.join(dir, '001_first.sql'), 'A');
    fs.writeFileSync(path.join(dir, '002_second.sql'), 'B');
    fs.writeFileSync(path.join(dir, '003_third.sql'), 'C');
    const spy = vi.spyOn(fs, 'readdirSync').mockReturnValue(['003_third.sql', 'notes.txt', '001_first.sql', '002_second.sql'] as never);
    try {
      expect(readMigrations(dir).map((m) => m.name)).toEqual(['first', 'second', 'third']);
    } finally {
      spy.mockRestore();
    }
  });

  it('the chain walker keeps its first break, whatever it is fed after', () => {
    const l = Ledger.open(tmpDb());
    for (let i = 0; i < 3; i++) l.append(roll());
    const rows = l.db.prepare("SELECT * FROM rolls WHERE guild_id = 'g1' ORDER BY guild_seq").all() as RawRow[];
    l.close();
    const walker = new ChainWalker<RawRow>(() => 'x');
    const first = walker.feed(rows[0]!);
    expect(first).toEqual({
      ok: false,
      count: 0,
      broken: { id: rows[0]!.id, guildSeq: 1, reason: 'hash does not match the row contents: the row was edited' },
    });
    expect(walker.feed(rows[1]!)).toBe(first);
    expect(walker.report()).toBe(first);
    const tampered = { ...rows[1]!, guild_seq: 1, prev_hash: 'f'.repeat(64) };
    expect(new ChainWalker<RawRow>(storedRowHash).feed(tampered)).toEqual({
      ok: false,
      count: 0,
      broken: { id: rows[1]!.id, guildSeq: 1, reason: 'prev_hash does not match the hash of the row before it' },
    });
  });

  it('a value JSON cannot carry is refused by name', () => {
    expect(() => canonicalJson(undefined)).toThrow(new TypeError('value cannot be canonicalized'));
    expect(() => canonicalJson(() => 1)).toThrow('value cannot be canonicalized');
    expect(canonicalJson({ b: 1, a: [true, null] })).toBe('{"a":[true,null],"b":1}');
  });
});

// The roster's and the history's smaller promises, exactly (as mutation testing asked).
describe('roster names and seeds, history counts and lookups', () => {
  const game = testGame;
  const addUnit = (gameId: string, name: string) =>
    ledger.roster.addUnit({ game_id: gameId, name, owner_id: 'u1', owner_name: 'U', side: null, fields: {}, at: '2026-11-30T12:00:00.000Z' });
  const append = (over: Record<string, unknown> = {}) => ledger.append(roll(over));

  it('a second game in a channel is refused, naming the one running', () => {
    ledger = Ledger.open(tmpDb());
    ledger.roster.startGame(game('a'));
    expect(() => ledger.roster.startGame(game('b'))).toThrow('a game is already running in this channel: Game a');
    expect(ledger.roster.startGame(game('c', 'c2')).name).toBe('Game c');
  });

  it('unit names are trimmed, found whatever their case, and refused when taken — also by a rename', () => {
    ledger = Ledger.open(tmpDb());
    ledger.roster.startGame(game('a'));
    const able = addUnit('a', '  Able Company ');
    expect(able.name).toBe('Able Company');
    expect(ledger.roster.unitByName('a', 'ABLE company')?.id).toBe(able.id);
    expect(ledger.roster.unitByName('a', 'Baker')).toBeUndefined();
    expect(() => addUnit('a', 'able company')).toThrow(new DuplicateUnitError('there is already a unit named able company in this game'));
    const baker = addUnit('a', 'Baker');
    expect(() => ledger.roster.patchUnit(baker.id, { name: 'ABLE COMPANY' }, 'now')).toThrow(
      new DuplicateUnitError('there is already a unit named Able Company in this game'),
    );
    // Renaming a unit to its own name, differently spaced, is no clash; the stored name is trimmed.
    expect(ledger.roster.patchUnit(baker.id, { name: ' baker  ' }, 'now').name).toBe('baker');
    expect(ledger.roster.unitByName('a', 'BAKER')?.id).toBe(baker.id);
  });

  it('a name prefix is read literally: % and _ match only themselves', () => {
    ledger = Ledger.open(tmpDb());
    ledger.roster.startGame(game('a'));
    for (const n of ['A_1', 'AB1', 'A%2', 'AXX2']) addUnit('a', n);
    expect(ledger.roster.unitNames('a', 'a_', 10)).toEqual(['A_1']);
    expect(ledger.roster.unitNames('a', 'A%', 10)).toEqual(['A%2']);
    expect(ledger.roster.unitNames('a', 'a', 10).sort()).toEqual(['A%2', 'AB1', 'AXX2', 'A_1']);
  });

  it("a game's player seeds are the revealed ones, in commitment order", () => {
    ledger = Ledger.open(tmpDb());
    ledger.roster.startGame(game('a'));
    ledger.roster.setSeedCommitments('a', [
      { user_id: 'u1', user_name: 'A', commitment: 'c1', seed: 'one' },
      { user_id: 'u2', user_name: 'B', commitment: 'c2', seed: null },
      { user_id: 'u3', user_name: 'C', commitment: 'c3', seed: 'three' },
    ]);
    expect(JSON.parse(ledger.roster.game('g1', 'a')!.player_seeds)).toEqual(['one', 'three']);
  });

  it('a history count stops at its cap: exactly the cap is not capped, one more is', () => {
    ledger = Ledger.open(tmpDb());
    for (let i = 0; i < 5; i++) append();
    expect(ledger.history.page({ guildId: 'g1' }, 0, 0, 5)).toEqual({ rows: [], total: 5, capped: false });
    expect(ledger.history.page({ guildId: 'g1' }, 0, 0, 4)).toEqual({ rows: [], total: 4, capped: true });
    expect(ledger.history.page({ guildId: 'g1' }, 2, 0, 4).rows.map((r) => r.guild_seq)).toEqual([5, 4]);
  });

  it('voids, reveals and message links are read back for the rows asked about, in their own server', () => {
    ledger = Ledger.open(tmpDb());
    const a = append();
    const b = append();
    append({ kind: 'void', parentId: a.id, input: { reason: 'misclick' }, onceKey: `void:${a.id}` });
    append({ kind: 'void', parentId: b.id, input: {}, onceKey: `void:${b.id}` });
    expect(ledger.history.voided('g1', [a.id, b.id])).toEqual(
      new Map([
        [a.id, 'misclick'],
        [b.id, ''],
      ]),
    );
    expect(ledger.history.voided('g2', [a.id])).toEqual(new Map());
    append({ kind: 'reveal', parentId: a.id, input: { payload: { dice: [1], outcome: {}, result: 'r' } } });
    expect(ledger.history.revealed('g1', [a.id, b.id])).toEqual(new Set([a.id]));
    ledger.history.linkMessage(a.id, 'm1');
    ledger.history.linkMessage(a.id, 'm2');
    expect(ledger.history.messages([a.id, b.id])).toEqual(new Map([[a.id, 'm1']]));
  });

  it('a long walk grows its chunks while rows are cheap: 600 rows in a handful of chunks, not hundreds', async () => {
    ledger = Ledger.open(tmpDb());
    ledger.db.transaction(() => {
      for (let i = 0; i < 600; i++) append();
    })();
    const sizes: number[] = [];
    for await (const c of ledger.history.rawChunks({ guildId: 'g1' }, { min: 2, max: 1000, ms: 1000 })) sizes.push(c.length);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(600);
    expect(sizes[0]).toBe(8);
    expect(sizes.length).toBeLessThanOrEqual(6);
  });
});
