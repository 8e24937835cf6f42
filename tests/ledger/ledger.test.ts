import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { GENESIS_HASH, rowHash, storedRowHash } from '../../src/ledger/chain.js';
import { AlreadyRecordedError, LedgerWriteError } from '../../src/ledger/errors.js';
import { openDatabase } from '../../src/ledger/database.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { withFullChained, type NewEntry } from '../../src/ledger/rows.js';
import { migrate, readMigrations, schemaVersion } from '../../src/ledger/migrate.js';
import { tmpDb } from '../helpers/tmp.js';

const entry = (over: Partial<NewEntry> = {}): NewEntry => ({
  guildId: 'g1',
  channelId: 'c1',
  userId: 'u1',
  userName: 'Alice',
  command: 'rally',
  system: 'hearts-of-tin',
  kind: 'roll',
  unit: '1st Foot',
  input: { disorder: 2, quality: 'regular' },
  dice: [4],
  outcome: { result: 'retreat', steps: [{ dice: [4], final: 3 }] },
  result: 'retreat',
  ...over,
});

/** The attacker's view: the raw file, with the append-only triggers removed. */
function tamper(file: string, sql: string, ...params: unknown[]) {
  const db = new Database(file);
  db.exec('DROP TRIGGER IF EXISTS rolls_no_update; DROP TRIGGER IF EXISTS rolls_no_delete;');
  db.prepare(sql).run(...params);
  db.close();
}

describe('ledger append and hash chain', () => {
  it('appends rows to a per-guild chain that verifies', () => {
    const file = tmpDb();
    const ledger = Ledger.open(file, { now: () => new Date('2026-11-29T12:00:00Z') });
    const a = ledger.append(entry());
    const b = ledger.append(entry({ result: 'rally' }));
    const other = ledger.append(entry({ guildId: 'g2' }));
    expect(a.guild_seq).toBe(1);
    expect(a.prev_hash).toBe(GENESIS_HASH);
    expect(b.guild_seq).toBe(2);
    expect(b.prev_hash).toBe(a.hash);
    expect(other.guild_seq).toBe(1);
    expect(other.prev_hash).toBe(GENESIS_HASH);
    expect(a.hash).toBe(rowHash(GENESIS_HASH, a));
    expect(a.created_at).toBe('2026-11-29T12:00:00.000Z');
    expect(ledger.verify('g1')).toEqual({ ok: true, count: 2, headHash: b.hash });
    expect(ledger.verify('g2')).toEqual({ ok: true, count: 1, headHash: other.hash });
    expect(ledger.verify('nobody')).toEqual({ ok: true, count: 0, headHash: GENESIS_HASH });
    ledger.close();
  });

  it('hashes stored rows without parsing them exactly as it hashes the parsed rows', () => {
    const ledger = Ledger.open(tmpDb());
    const odd = [
      entry({ unit: 'Ærø «Garde» \u2028 "quoted" \\ 🐎', input: { z: 1, a: [1.5, -0, 1e21, 'x\ny'], m: { b: null, a: true } } }),
      entry({ gameId: null, unit: null, outcome: { steps: [], result: 'ok', emoji: '🎲' } }),
    ];
    for (const e of odd) ledger.append(e);
    const raw = ledger.db.prepare('SELECT * FROM rolls ORDER BY seq').all() as Record<string, unknown>[];
    for (const r of raw.map(withFullChained)) {
      const parsed = ledger.get('g1', String(r.id))!;
      expect(storedRowHash(String(r.prev_hash), r)).toBe(rowHash(parsed.prev_hash, parsed));
      expect(storedRowHash(String(r.prev_hash), r)).toBe(r.hash);
    }
    ledger.close();
  });

  it('reads back exactly what it wrote, and only within the guild', () => {
    const ledger = Ledger.open(tmpDb());
    const a = ledger.append(entry());
    const got = ledger.get('g1', a.id)!;
    expect(got.input).toEqual({ disorder: 2, quality: 'regular' });
    expect(got.dice).toEqual([4]);
    expect(got.outcome).toEqual(entry().outcome);
    expect(got.hash).toBe(a.hash);
    expect(ledger.get('g2', a.id)).toBeUndefined();
    ledger.close();
  });

  it('refuses UPDATE and DELETE through SQLite itself', () => {
    const ledger = Ledger.open(tmpDb());
    ledger.append(entry());
    expect(() => ledger.db.prepare("UPDATE rolls SET result = 'huzzah'").run()).toThrow(/append-only/);
    // A committed row's person values change only inside an erasure (its server's row in `erasing`).
    expect(() => ledger.db.prepare("UPDATE rolls SET user_name = 'Mallory'").run()).toThrow(/append-only/);
    ledger.db.transaction(() => {
      ledger.db.prepare("INSERT INTO erasing (guild_id) VALUES ('g1')").run();
      ledger.db.prepare("UPDATE rolls SET user_name = ''").run();
      expect(() => ledger.db.prepare("UPDATE rolls SET dice = '[6]'").run()).toThrow(/append-only/);
      ledger.db.prepare("DELETE FROM erasing WHERE guild_id = 'g1'").run();
    })();
    expect(() => ledger.db.prepare('DELETE FROM rolls').run()).toThrow(/append-only/);
    ledger.close();
  });

  it('detects an edited row and names it', () => {
    const file = tmpDb();
    const ledger = Ledger.open(file);
    ledger.append(entry());
    const b = ledger.append(entry());
    ledger.append(entry());
    tamper(file, "UPDATE rolls SET result = 'huzzah' WHERE id = ?", b.id);
    const report = ledger.verify('g1');
    expect(report).toMatchObject({ ok: false, count: 1, broken: { id: b.id, guildSeq: 2 } });
    expect(report.ok === false && report.broken.reason).toMatch(/edited/);
    ledger.close();
  });

  it('detects an edit inside the JSON input (the dice are covered too)', () => {
    const file = tmpDb();
    const ledger = Ledger.open(file);
    const a = ledger.append(entry());
    tamper(file, "UPDATE rolls SET dice = '[6]' WHERE id = ?", a.id);
    expect(ledger.verify('g1')).toMatchObject({ ok: false, count: 0, broken: { id: a.id } });
    ledger.close();
  });

  it('detects a deleted row at the row after it', () => {
    const file = tmpDb();
    const ledger = Ledger.open(file);
    ledger.append(entry());
    const b = ledger.append(entry());
    const c = ledger.append(entry());
    tamper(file, 'DELETE FROM rolls WHERE id = ?', b.id);
    const report = ledger.verify('g1');
    expect(report).toMatchObject({ ok: false, count: 1, broken: { id: c.id, guildSeq: 3 } });
    expect(report.ok === false && report.broken.reason).toMatch(/deleted or moved/);
    ledger.close();
  });

  it('detects reordered rows', () => {
    const file = tmpDb();
    const ledger = Ledger.open(file);
    ledger.append(entry());
    const b = ledger.append(entry({ result: 'rally' }));
    const c = ledger.append(entry({ result: 'rout' }));
    // Swap positions 2 and 3 (via a spare value, as the pair is unique).
    tamper(file, 'UPDATE rolls SET guild_seq = 99 WHERE id = ?', b.id);
    tamper(file, 'UPDATE rolls SET guild_seq = 2 WHERE id = ?', c.id);
    tamper(file, 'UPDATE rolls SET guild_seq = 3 WHERE id = ?', b.id);
    expect(ledger.verify('g1')).toMatchObject({ ok: false, count: 1, broken: { id: c.id, guildSeq: 2 } });
    ledger.close();
  });

  it('detects a row inserted into the chain', () => {
    const file = tmpDb();
    const ledger = Ledger.open(file);
    const a = ledger.append(entry());
    // A forger who knows the scheme rehashes the new row, but the old head does not point at it.
    const forged = { ...a, chained: null, id: 'forged0001', guild_seq: 2, result: 'huzzah', prev_hash: a.hash };
    const hash = rowHash(a.hash, forged);
    ledger.append(entry());
    tamper(file, 'UPDATE rolls SET guild_seq = 3 WHERE guild_seq = 2');
    tamper(
      file,
      `INSERT INTO rolls (id, guild_id, guild_seq, channel_id, user_id, user_name, command, system, kind, unit, input, dice, outcome, result, created_at, prev_hash, hash)
       SELECT 'forged0001', guild_id, 2, channel_id, user_id, user_name, command, system, kind, unit, input, dice, outcome, 'huzzah', created_at, ?, ? FROM rolls WHERE id = ?`,
      a.hash,
      hash,
      a.id,
    );
    const report = ledger.verify('g1');
    expect(report.ok).toBe(false);
    expect(report.ok === false && report.broken.guildSeq).toBe(3);
    ledger.close();
  });

  it('allows a once-only action once', () => {
    const ledger = Ledger.open(tmpDb());
    const a = ledger.append(entry());
    ledger.append(entry({ kind: 'reroll', parentId: a.id, onceKey: `reroll:${a.id}` }));
    expect(() => ledger.append(entry({ kind: 'reroll', parentId: a.id, onceKey: `reroll:${a.id}` }))).toThrow(AlreadyRecordedError);
    expect(ledger.count('g1')).toBe(2);
    expect(ledger.children('g1', a.id).map((r) => r.kind)).toEqual(['reroll']);
    ledger.close();
  });

  it('refuses a parent that does not exist (foreign keys are on)', () => {
    const ledger = Ledger.open(tmpDb());
    expect(() => ledger.append(entry({ parentId: 'nosuchroll' }))).toThrow(LedgerWriteError);
    expect(ledger.count('g1')).toBe(0);
    ledger.close();
  });

  it('writes nothing when the disk is full', () => {
    const ledger = Ledger.open(tmpDb());
    ledger.append(entry());
    const pages = ledger.db.pragma('page_count', { simple: true }) as number;
    ledger.db.pragma(`max_page_count = ${pages}`);
    expect(() => ledger.append(entry({ input: { big: 'x'.repeat(20_000) } }))).toThrow(LedgerWriteError);
    expect(ledger.count('g1')).toBe(1);
    expect(ledger.verify('g1').ok).toBe(true);
    ledger.close();
  });

  it('writes nothing when another connection holds the write lock past the timeout', () => {
    const file = tmpDb();
    const ledger = Ledger.open(file, { busyTimeoutMs: 50 });
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    expect(() => ledger.append(entry())).toThrow(LedgerWriteError);
    other.exec('ROLLBACK');
    other.close();
    expect(ledger.count('g1')).toBe(0);
    expect(ledger.append(entry()).guild_seq).toBe(1);
    ledger.close();
  });

  it('suggests the units a channel has used, newest first, matching a prefix', () => {
    const ledger = Ledger.open(tmpDb());
    ledger.append(entry({ unit: '1st Foot' }));
    ledger.append(entry({ unit: '2nd Foot' }));
    ledger.append(entry({ unit: '1st Horse' }));
    ledger.append(entry({ unit: '1st Foot' }));
    ledger.append(entry({ unit: '100% Rifles' }));
    ledger.append(entry({ unit: 'Elsewhere', channelId: 'c2' }));
    expect(ledger.recentUnits('g1', 'c1', '1st', 25, 'hearts-of-tin')).toEqual(['1st Foot', '1st Horse']);
    expect(ledger.recentUnits('g1', 'c1', '', 2, 'hearts-of-tin')).toEqual(['100% Rifles', '1st Foot']);
    expect(ledger.recentUnits('g1', 'c1', '100%', 25, 'hearts-of-tin')).toEqual(['100% Rifles']);
    expect(ledger.recentUnits('g1', 'c1', '1_', 25, 'hearts-of-tin')).toEqual([]);
    expect(ledger.recentUnits('g2', 'c1', '', 25, 'hearts-of-tin')).toEqual([]);
    expect(ledger.recentUnits('g1', 'c1', '', 25, 'asl')).toEqual([]);
    // Upper and lower case match alike, and a unit rolled again in other spelling keeps the newest.
    ledger.append(entry({ unit: '1ST FOOT' }));
    expect(ledger.recentUnits('g1', 'c1', '1st f', 25, 'hearts-of-tin')).toEqual(['1ST FOOT']);
    ledger.close();
  });
});

describe('migrations', () => {
  it('apply in order once; a second run is a no-op', () => {
    const file = tmpDb();
    const db = new Database(file);
    const all = readMigrations();
    expect(all.map((m) => m.version)).toEqual(all.map((_, i) => i + 1));
    expect(migrate(db)).toEqual(all.map((m) => m.version));
    expect(migrate(db)).toEqual([]);
    expect(schemaVersion(db)).toBe(all.length);
    db.close();
    // Reopening through the ledger migrates nothing and keeps the data.
    const ledger = Ledger.open(file);
    ledger.append(entry());
    ledger.close();
    const again = Ledger.open(file);
    expect(again.count('g1')).toBe(1);
    again.close();
  });

  it('roll back a failing migration whole, leaving no version row', () => {
    const db = new Database(tmpDb());
    const bad = [...readMigrations(), { version: readMigrations().length + 1, name: 'broken', sql: 'CREATE TABLE t (x); SELECT nope FROM missing;' }];
    expect(() => migrate(db, bad)).toThrow();
    expect(schemaVersion(db)).toBe(readMigrations().length);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 't'").get()).toBeUndefined();
    db.close();
  });

  it('set WAL, foreign keys and a busy timeout on every connection', () => {
    const ledger = Ledger.open(tmpDb());
    expect(ledger.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(ledger.db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(ledger.db.pragma('busy_timeout', { simple: true })).toBe(5000);
    ledger.close();
  });
});

// /verify walks the chain in chunks, giving the event loop back between them.
describe('verification in chunks', () => {
  const built = (n: number) => {
    const file = tmpDb();
    const ledger = Ledger.open(file);
    const rows = Array.from({ length: n }, (_, i) => ledger.append(entry({ unit: `U${i}` })));
    return { file, ledger, rows };
  };

  it('gives the same report as the walk in one go, for every chunk size, intact and up to a row', async () => {
    const { ledger, rows } = built(23);
    for (const chunk of [1, 2, 5, 22, 23, 1000]) {
      expect(await ledger.verifyInChunks('g1', undefined, { min: chunk, max: chunk })).toEqual({ ok: true, count: 23, headHash: rows[22]!.hash });
      expect(await ledger.verifyInChunks('g1', 10, { min: chunk, max: chunk })).toEqual(ledger.verify('g1', 10));
    }
    expect(await ledger.verifyInChunks('nobody')).toEqual({ ok: true, count: 0, headHash: GENESIS_HASH });
    ledger.close();
  });

  it('finds an edited row, a deleted row and a moved row exactly where the one-go walk does, across chunk edges', async () => {
    for (const [sql, at] of [
      ["UPDATE rolls SET result = 'huzzah' WHERE id = ?", 9],
      ['DELETE FROM rolls WHERE id = ?', 10],
      ['UPDATE rolls SET guild_seq = 99 WHERE id = ?', 14],
    ] as const) {
      const { file, ledger, rows } = built(20);
      tamper(file, sql, rows[at]!.id);
      const once = ledger.verify('g1');
      expect(once.ok).toBe(false);
      for (const chunk of [1, 3, 5, 10, 1000])
        expect(await ledger.verifyInChunks('g1', undefined, { min: chunk, max: chunk }), `${sql} chunk ${chunk}`).toEqual(once);
      ledger.close();
    }
  });

  it('yields to the event loop between chunks: a timer set before the walk fires before it ends', async () => {
    const { ledger } = built(40);
    let fired = false;
    setImmediate(() => {
      fired = true;
    });
    const walking = ledger.verifyInChunks('g1', undefined, { min: 5, max: 5 }).then((r) => ({ r, firedBeforeEnd: fired }));
    expect(fired).toBe(false);
    const { r, firedBeforeEnd } = await walking;
    expect(r).toMatchObject({ ok: true, count: 40 });
    expect(firedBeforeEnd).toBe(true);
    ledger.close();
  });
});

// Every query a /history page makes is served by an index, never a scan of the server.
describe('query plans of a /history page', () => {
  it('the page and the chunked walk (each filter shape, no scan, no sort) and its lookups (voids, reveals, message links) use indexes', () => {
    const ledger = Ledger.open(tmpDb());
    ledger.append(entry());
    const scans = (plan: string[]) => plan.filter((d) => /^SCAN (rolls|roll_messages)\b/.test(d));
    // A sort of every matching row (a temp B-tree) on each page or chunk grows with the server too.
    const sorts = (plan: string[]) => plan.filter((d) => /TEMP B-TREE/.test(d));
    for (const f of [
      { guildId: 'g1', channelId: 'c1', kinds: ['roll', 'reroll'] as string[] },
      { guildId: 'g1', kinds: ['roll', 'reroll'] as string[] },
      { guildId: 'g1', channelId: 'c1', userId: 'u1', kinds: ['roll', 'reroll'] as string[] },
      { guildId: 'g1', userId: 'u1', kinds: ['roll', 'reroll'] as string[] },
      { guildId: 'g1', kinds: 'all' as const },
      { guildId: 'g1', system: 'hearts-of-tin', kinds: ['roll', 'reroll'] as string[] },
    ]) {
      for (const shape of ['page', 'chunk'] as const) {
        const plan = ledger.history.plan(f as never, shape);
        expect(scans(plan), `${shape} ${JSON.stringify(f)}`).toEqual([]);
        expect(sorts(plan), `${shape} ${JSON.stringify(f)}`).toEqual([]);
        // Each shape is the statement it names: a chunk seeks past the last row it read, a page does not.
        expect(
          plan.some((d) => d.includes('seq>?')),
          `${shape} ${JSON.stringify(f)}`,
        ).toBe(shape === 'chunk');
      }
    }
    // Unit autocomplete: the first keystroke walks the recency index (no sort); a prefix seeks its
    // key range, so only the names it starts are sorted. Never a scan.
    const units = ledger.recentUnitsPlans();
    expect(units.newest).toEqual(['SEARCH channel_units USING INDEX channel_units_recent (guild_id=? AND channel_id=? AND system=?)']);
    expect(units.prefix[0]).toBe('SEARCH channel_units USING PRIMARY KEY (guild_id=? AND channel_id=? AND system=? AND unit_key>? AND unit_key<?)');
    expect([...units.newest, ...units.prefix].filter((d) => /^SCAN/.test(d))).toEqual([]);
    const lookups = ledger.history.lookupPlans();
    expect(lookups.voids.join(' ')).toContain('USING INDEX rolls_parent (parent_id=?)');
    expect(lookups.reveals.join(' ')).toContain('USING INDEX rolls_parent (parent_id=?)');
    expect(lookups.messages.join(' ')).toContain('roll_messages USING INDEX sqlite_autoindex_roll_messages_1 (roll_id=?)');
    for (const plan of Object.values(lookups)) expect(scans(plan)).toEqual([]);
    ledger.close();
  });
});

describe('migration 005 (channel_units)', () => {
  it('fills the autocomplete table from the rolls a ledger already holds', () => {
    const file = tmpDb();
    const before = Ledger.open(file);
    before.append(entry({ unit: 'Old Guard' }));
    before.append(entry({ unit: 'old guard' }));
    before.append(entry({ unit: 'Rifles', system: 'lightning-war' }));
    before.close();
    // As a ledger written before 005 was: no table, the migration not applied.
    const raw = new Database(file);
    raw.exec('DROP TABLE channel_units; DELETE FROM schema_migrations WHERE version = 5;');
    raw.close();
    const upgraded = Ledger.open(file);
    expect(upgraded.recentUnits('g1', 'c1', '', 25, 'hearts-of-tin')).toEqual(['old guard']);
    expect(upgraded.recentUnits('g1', 'c1', 'ri', 25, 'lightning-war')).toEqual(['Rifles']);
    upgraded.close();
  });
});

// The ledger holds sealed payloads and names, so it is its owner's alone,
// whatever the process's umask (this test process runs with the usual 022).
describe('the ledger file is owner-only', () => {
  const mode = (f: string) => (fs.statSync(f).mode & 0o777).toString(8);
  it('a new ledger, its WAL and shared memory are 0600, and a new folder 0700', () => {
    const file = path.join(path.dirname(tmpDb()), 'new-folder', 'ledger.db');
    const ledger = Ledger.open(file);
    ledger.append(entry());
    expect(mode(path.dirname(file))).toBe('700');
    for (const f of [file, `${file}-wal`, `${file}-shm`]) expect(mode(f), f).toBe('600');
    ledger.close();
  });

  it('an older world-readable ledger is narrowed to 0600 when opened', () => {
    const file = tmpDb();
    fs.writeFileSync(file, '');
    fs.chmodSync(file, 0o644);
    Ledger.open(file).close();
    expect(mode(file)).toBe('600');
  });
});

describe("the writer's connection", () => {
  it("keeps a savepoint's journal in memory: a group commit's units write no page copies to a temporary file", () => {
    const ledger = Ledger.open(tmpDb());
    // 2 is MEMORY (0 the build's default, 1 FILE).
    expect(ledger.db.pragma('temp_store', { simple: true })).toBe(2);
    ledger.close();
    // Before the migrations run, the default: a new index on a big ledger is sorted on disk, not in memory.
    const plain = openDatabase(tmpDb());
    expect(plain.pragma('temp_store', { simple: true })).toBe(0);
    plain.close();
  });
});
