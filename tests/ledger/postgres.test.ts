import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { AlreadyRecordedError, LedgerWriteError } from '../../src/ledger/errors.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { IMPORT_BATCH, importLedger } from '../../src/ledger/postgres/import.js';
import { ledgerError, PgLedger } from '../../src/ledger/postgres/pg-ledger.js';
import { PgStore } from '../../src/ledger/postgres/pg-store.js';
import { sqliteStore } from '../../src/ledger/store.js';
import { erasePerson } from '../../src/core/privacy.js';
import type { NewEntry } from '../../src/ledger/rows.js';
import { freshDatabase, testPostgres } from '../helpers/postgres.js';
import { ledgerEntry } from '../helpers/ledger.js';
import { tmpDb } from '../helpers/tmp.js';

const PG_MIGRATION_FILES = fs.readdirSync(new URL('../../migrations/postgres/', import.meta.url)).filter((f) => f.endsWith('.sql'));

// The ledger's chain on a real PostgreSQL server, with many writers. Each "process" below
// is its own connection pool, as separate bot processes would be.
const server = await testPostgres();
afterAll(() => server?.stop());

const entry = (over: Partial<NewEntry> = {}) => ledgerEntry({ input: { disorder: 2 }, ...over });

describe.skipIf(!server)('the PostgreSQL ledger (a real server)', () => {
  const open = async (url: string, n = 1) => Promise.all(Array.from({ length: n }, () => PgLedger.connect(url, { max: 8 })));

  it('appends rows to per-guild chains that verify, and reads them back as written', async () => {
    const store = await PgStore.connect(await freshDatabase(server!));
    const ledger = store.ledger;
    const a = await ledger!.append(entry({ unit: 'Rifles' }));
    const b = await ledger!.append(entry({ parentId: a.id, kind: 'reroll', onceKey: `reroll:${a.id}` }));
    await ledger!.append(entry({ guildId: 'g2' }));
    expect([a.guild_seq, b.guild_seq, b.prev_hash]).toEqual([1, 2, a.hash]);
    expect(await store.get('g1', a.id)).toEqual({ ...a, input: { disorder: 2 } });
    expect(await store.get('g2', a.id)).toBeUndefined();
    expect([await ledger!.count('g1'), await ledger!.count('g2'), await ledger!.count('g3')]).toEqual([2, 1, 0]);
    expect(await ledger!.verify('g1')).toEqual({ ok: true, count: 2, headHash: b.hash });
    expect(await ledger!.verify('g1', 1)).toEqual({ ok: true, count: 1, headHash: a.hash });
    const guilds = await ledger!.pool.query('SELECT guild_id FROM chain_heads ORDER BY guild_id');
    expect(guilds.rows.map((r) => r.guild_id)).toEqual(['g1', 'g2']);
    await ledger!.close();
  });

  it('three processes appending at once to four guilds: every chain whole, positions 1…n with no gap or fork', async () => {
    const url = await freshDatabase(server!);
    const processes = await open(url, 3);
    const writes = Array.from({ length: 120 }, (_, i) => processes[i % 3]!.append(entry({ guildId: `g${i % 4}`, input: { i } })));
    const rows = await Promise.all(writes);
    for (let g = 0; g < 4; g++) {
      const seqs = rows
        .filter((r) => r.guild_id === `g${g}`)
        .map((r) => r.guild_seq)
        .sort((x, y) => x - y);
      expect(seqs).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      expect(await processes[g % 3]!.verify(`g${g}`)).toMatchObject({ ok: true, count: 30 });
    }
    await Promise.all(processes.map((p) => p.close()));
  });

  it('fifty presses of one once-key spread over three processes record it exactly once', async () => {
    const processes = await open(await freshDatabase(server!), 3);
    const first = await processes[0]!.append(entry());
    const presses = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => processes[i % 3]!.append(entry({ kind: 'reroll', parentId: first.id, onceKey: `reroll:${first.id}` }))),
    );
    expect(presses.filter((p) => p.status === 'fulfilled')).toHaveLength(1);
    const refused = presses.filter((p): p is PromiseRejectedResult => p.status === 'rejected');
    expect(refused).toHaveLength(49);
    for (const r of refused) expect(r.reason).toEqual(new AlreadyRecordedError(`reroll:${first.id} was already recorded`));
    expect(await processes[1]!.count('g1')).toBe(2);
    expect(await processes[2]!.verify('g1')).toMatchObject({ ok: true, count: 2 });
    await Promise.all(processes.map((p) => p.close()));
  });

  it('rows cannot be changed; a row edited behind the trigger is found by verification', async () => {
    const [ledger] = await open(await freshDatabase(server!));
    await ledger!.append(entry());
    const b = await ledger!.append(entry({ input: { disorder: 3 } }));
    await expect(ledger!.pool.query("UPDATE rolls SET result = 'rallied'")).rejects.toThrow('the ledger is append-only');
    await expect(ledger!.pool.query('DELETE FROM rolls')).rejects.toThrow('the ledger is append-only');
    // A committed row's person values change only inside an erasure (its server's row in `erasing`), and nothing else with them.
    await expect(ledger!.pool.query("UPDATE rolls SET user_name = 'Mallory'")).rejects.toThrow('the ledger is append-only');
    const c = await ledger!.pool.connect();
    try {
      await c.query('BEGIN');
      await c.query("INSERT INTO erasing (guild_id) VALUES ('g1')");
      await c.query("UPDATE rolls SET user_name = ''");
      await expect(c.query("UPDATE rolls SET user_name = '', dice = '[6]'")).rejects.toThrow('the ledger is append-only');
    } finally {
      await c.query('ROLLBACK');
      c.release();
    }
    await ledger!.pool.query('ALTER TABLE rolls DISABLE TRIGGER rolls_no_change');
    await ledger!.pool.query(`UPDATE rolls SET input = '{"disorder":1}' WHERE id = $1`, [b.id]);
    expect(await ledger!.verify('g1')).toEqual({
      ok: false,
      count: 1,
      broken: { id: b.id, guildSeq: 2, reason: 'hash does not match the row contents: the row was edited' },
    });
    await ledger!.close();
  });

  it('a sealed roll chains only its commitment; the payload waits in its own table', async () => {
    const [ledger] = await open(await freshDatabase(server!));
    const row = await ledger!.append(entry({ sealed: { effects: [] } } as Partial<NewEntry>));
    expect(row.result).toBeNull();
    expect(row.dice).toEqual([]);
    expect(row.outcome).toMatchObject({ sealed: true, commitment: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const stored = await ledger!.pool.query('SELECT payload FROM sealed_payloads WHERE roll_id = $1', [row.id]);
    expect(JSON.parse(stored.rows[0].payload)).toMatchObject({ dice: [4], result: 'rally' });
    await ledger!.close();
  });

  it('four processes starting together on a new database apply its migrations once', async () => {
    const processes = await open(await freshDatabase(server!), 4);
    const r = await processes[0]!.pool.query('SELECT version FROM schema_migrations ORDER BY version');
    // One row per file of migrations/postgres, each applied once.
    expect(r.rows).toEqual(PG_MIGRATION_FILES.map((_, i) => ({ version: i + 1 })));
    expect(await processes[3]!.migrate()).toEqual([]);
    await Promise.all(processes.map((p) => p.close()));
  });
});

// npm run migrate-ledger: a SQLite ledger with every kind of row moves to PostgreSQL unchanged.
describe.skipIf(!server)('migrating a SQLite ledger to PostgreSQL', () => {
  /** A SQLite ledger with rolls in two guilds, a re-roll, a sealed roll, a game, units, settings, a saved query, a message link. */
  function sqliteLedger() {
    const file = tmpDb();
    const l = Ledger.open(file);
    const a = l.append(entry({ unit: 'Rifles' }));
    l.append(entry({ kind: 'reroll', parentId: a.id, onceKey: `reroll:${a.id}` }));
    l.append(entry({ sealed: { effects: [] } }));
    l.append(entry({ guildId: 'g2', channelId: 'c9' }));
    l.roster.startGame({
      id: 'game1',
      guild_id: 'g1',
      channel_id: 'c1',
      system: 'asl',
      name: 'Stalingrad',
      started_by: 'u1',
      started_at: 'T',
      server_seed: 's',
    });
    l.roster.addUnit({ game_id: 'game1', name: 'Able', owner_id: 'u1', owner_name: 'U', side: null, fields: { ml: 7 }, at: 'T' });
    l.append(entry({ gameId: 'game1', turn: 1, phase: 'rally', gameSeq: 1, unit: 'Able' }));
    l.settings.setGmChannel('g1', 'c5');
    l.queries.save({ id: 'q1', guild_id: 'g1', channel_id: 'c1', user_id: 'u1', params: { scope: 'channel' }, created_at: new Date().toISOString() });
    l.history.linkMessage(a.id, 'm1');
    return { file, ledger: l, first: a };
  }

  it('moves every table as it is, and every chain verifies on arrival with the same head; appends continue the chain', async () => {
    const { ledger: source } = sqliteLedger();
    const target = await PgLedger.connect(await freshDatabase(server!));
    const report = await importLedger(source, target);
    expect(report.guilds).toEqual([
      { guildId: 'g1', rows: 4, headHash: (source.verify('g1') as { headHash: string }).headHash },
      { guildId: 'g2', rows: 1, headHash: (source.verify('g2') as { headHash: string }).headHash },
    ]);
    expect(report.tables).toEqual({
      rolls: 5,
      sealed_payloads: 1,
      roll_messages: 1,
      roll_deliveries: 0,
      beacon_bindings: 0,
      interaction_evidence: 0,
      roll_requests: 0,
      game_clocks: 0,
      schedules: 0,
      games: 1,
      units: 1,
      guild_config: 1,
      guild_departures: 0,
      saved_queries: 1,
      channel_units: 2,
      dice_tallies: 3,
      interactions: 0,
      signing_keys: 0,
      player_roll_counts: 1,
      // The one person of each guild's rows (people.ts); `erasing` is empty outside an erasure's transaction.
      people: 2,
      erasing: 0,
    });
    // Row for row: the same ids, positions, stored text and hashes.
    const theirs = (await target.pool.query('SELECT * FROM rolls ORDER BY seq')).rows;
    const ours = source.db.prepare('SELECT * FROM rolls ORDER BY seq').all();
    expect(theirs).toEqual(ours);
    expect((await target.pool.query('SELECT name, fields FROM units')).rows).toEqual([{ name: 'Able', fields: '{"ml":7}' }]);
    const next = await target.append(entry());
    expect(next).toMatchObject({ guild_seq: 5, prev_hash: report.guilds[0]!.headHash, seq: 6 });
    expect(await target.verify('g1')).toMatchObject({ ok: true, count: 5 });
    source.close();
    await target.close();
  });

  it('refuses a database that already holds rows, and a source whose chain is broken; nothing is copied', async () => {
    const { file, ledger: source } = sqliteLedger();
    const url = await freshDatabase(server!);
    const target = await PgLedger.connect(url);
    await target.append(entry({ guildId: 'other' }));
    await expect(importLedger(source, target)).rejects.toThrow('the PostgreSQL ledger already holds 1 rows: migrate into an empty database');
    source.close();
    // An edited row at the source (the append-only trigger dropped to make it).
    const raw = new Database(file);
    raw.exec('DROP TRIGGER rolls_no_update');
    raw.prepare("UPDATE rolls SET result = 'rallied' WHERE guild_id = 'g2'").run();
    raw.close();
    const tampered = Ledger.open(file);
    const empty = await PgLedger.connect(await freshDatabase(server!));
    await expect(importLedger(tampered, empty)).rejects.toThrow(
      /^guild g2: the chain is broken at position 1 \(row \w+: hash does not match the row contents: the row was edited\); nothing was copied$/,
    );
    expect((await empty.pool.query('SELECT count(*)::int AS n FROM rolls')).rows[0].n).toBe(0);
    tampered.close();
    await Promise.all([target.close(), empty.close()]);
  });

  it('npm run migrate-ledger: copies, verifies, and says so; a bad command line gets the usage', async () => {
    const { file, ledger } = sqliteLedger();
    ledger.close();
    const url = await freshDatabase(server!);
    const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'src/ops/migrate-ledger.ts', ...args], { encoding: 'utf8' });
    const ok = run('--from', `sqlite:${file}`, '--to', url);
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('migrated 5 rolls of 2 guilds; every chain verified on arrival');
    const again = run('--from', `sqlite:${file}`, '--to', url);
    expect(again.status).toBe(1);
    expect(again.stderr).toBe('refused: the PostgreSQL ledger already holds 5 rows: migrate into an empty database\n');
    // A bare path is the same SQLite file (refused here only because the target is no longer empty);
    // a URL of another kind gets the usage.
    expect(run('--from', file, '--to', url)).toMatchObject({
      status: 1,
      stderr: 'refused: the PostgreSQL ledger already holds 5 rows: migrate into an empty database\n',
    });
    expect(run('--from', 'mysql://db/ledger', '--to', url)).toMatchObject({ status: 2, stderr: expect.stringContaining('usage: npm run migrate-ledger') });
  }, 120_000);
});

// What mutation testing asked of the PostgreSQL side (src/ledger/postgres is held to it as the rest is).
describe.skipIf(!server)('PostgreSQL ledger details', () => {
  it('failures become the ledger errors: a spent once-key, the server refusing, a lost connection; the caller’s own pass through', () => {
    const once = ledgerError({ code: '23505', constraint: 'rolls_once_key', message: 'dup' }, entry({ onceKey: 'k1' }));
    expect(once).toEqual(new AlreadyRecordedError('k1 was already recorded'));
    const otherUnique = ledgerError({ code: '23505', constraint: 'rolls_guild_id_guild_seq_key', message: 'duplicate key' }) as Error;
    expect(otherUnique).toBeInstanceOf(LedgerWriteError);
    expect(otherUnique.message).toBe('the ledger could not record the change: duplicate key');
    const lost = ledgerError(new Error('connect ECONNREFUSED 127.0.0.1:5432')) as Error;
    expect(lost).toBeInstanceOf(LedgerWriteError);
    expect(lost.cause).toEqual(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
    const mine = new RangeError('mine');
    expect(ledgerError(mine)).toBe(mine);
    const already = new AlreadyRecordedError('x');
    expect(ledgerError(already)).toBe(already);
  });

  it('an erasure that blanks a whole committed input or outcome (keyed by the member) reads as erased, as on SQLite', async () => {
    const store = await PgStore.connect(await freshDatabase(server!));
    const file = Ledger.open(tmpDb());
    const sqlite = sqliteStore(file);
    const rows = [{ input: { u1: 'her note' } }, { outcome: { u1: 'kept' } }, { unit: 'Rifles' }].map(entry);
    try {
      for (const r of rows) {
        await store.ledger.append(r);
        file.append(r);
      }
      for (const s of [store, sqlite]) {
        await erasePerson(s, 'u1');
        expect(await s.verifyInChunks('g1'), s.backend).toMatchObject({ ok: true, count: 4, erased: 3 });
      }
    } finally {
      await store.close();
      await sqlite.close();
    }
  });

  it('a row inserted below position 1 breaks the chain there, before its first row', async () => {
    const store = await PgStore.connect(await freshDatabase(server!));
    try {
      for (let i = 0; i < 3; i++) await store.ledger.append(entry());
      const pool = store.ledger.pool;
      const columns = (
        await pool.query<{ c: string }>(
          "SELECT column_name AS c FROM information_schema.columns WHERE table_name = 'rolls' AND column_default IS NULL AND column_name NOT IN ('id', 'guild_seq')",
        )
      ).rows.map((r) => r.c);
      await pool.query(`INSERT INTO rolls (id, guild_seq, ${columns.join(', ')}) SELECT 'stray', 0, ${columns.join(', ')} FROM rolls WHERE guild_seq = 2`);
      expect(await store.verifyInChunks('g1')).toEqual({
        ok: false,
        count: 0,
        broken: { id: 'stray', guildSeq: 0, reason: 'position 0 where 1 was expected: a row before it was deleted or moved' },
      });
    } finally {
      await store.close();
    }
  });

  it('a pool of ten by default; an idle connection’s error does not crash the process; closed, it refuses', async () => {
    const ledger = await PgLedger.connect(await freshDatabase(server!));
    expect(ledger.pool.options.max).toBe(10);
    expect(() => ledger.pool.emit('error', new Error('server restarted'))).not.toThrow();
    await ledger.close();
    await expect(ledger.pool.query('SELECT 1')).rejects.toThrow();
  });

  it('imports in batches (one INSERT of 3,000 rolls would pass PostgreSQL’s 65,535 parameters), says what it did, and takes new units after the old ids', async () => {
    const file = tmpDb();
    // One clock reading for every roll: the dice report keeps rolls by the hour, and a run that
    // crossed an hour made two rows of one tally (it failed at 02:00).
    const source = Ledger.open(file, { now: () => new Date('2026-12-02T10:30:00Z') });
    source.db.transaction(() => {
      for (let i = 0; i < IMPORT_BATCH * 6 + 1; i++) source.append(entry({ input: { i } }));
    })();
    source.roster.startGame({ id: 'game1', guild_id: 'g1', channel_id: 'c1', system: 'asl', name: 'G', started_by: 'u1', started_at: 'T', server_seed: 's' });
    const kept = source.roster.addUnit({ game_id: 'game1', name: 'Able', owner_id: 'u1', owner_name: 'U', side: null, fields: {}, at: 'T' });
    const store = await PgStore.connect(await freshDatabase(server!));
    const said: string[] = [];
    const report = await importLedger(source, store.ledger, (l) => said.push(l));
    expect(report.tables.rolls).toBe(IMPORT_BATCH * 6 + 1);
    expect(said).toEqual([
      'source: 1 guilds, every chain verified',
      'copied 0 rows of beacon_bindings',
      'copied 0 rows of channel_units',
      'copied 1 rows of dice_tallies',
      'copied 0 rows of erasing',
      'copied 0 rows of game_clocks',
      'copied 1 rows of games',
      'copied 0 rows of guild_config',
      'copied 0 rows of guild_departures',
      'copied 0 rows of interaction_evidence',
      'copied 0 rows of interactions',
      'copied 1 rows of people',
      'copied 0 rows of player_roll_counts',
      `copied ${IMPORT_BATCH * 6 + 1} rows of rolls`,
      'copied 0 rows of roll_deliveries',
      'copied 0 rows of roll_messages',
      'copied 0 rows of roll_requests',
      'copied 0 rows of saved_queries',
      'copied 0 rows of schedules',
      'copied 0 rows of sealed_payloads',
      'copied 0 rows of signing_keys',
      'copied 1 rows of units',
      `target: every chain verified, ${IMPORT_BATCH * 6 + 1} rows in 1 guilds`,
    ]);
    const theirs = (await store.ledger.pool.query('SELECT input FROM rolls ORDER BY seq')).rows.map((r) => JSON.parse(r.input).i);
    expect(theirs).toEqual(Array.from({ length: IMPORT_BATCH * 6 + 1 }, (_, i) => i));
    const added = await store.transaction((tx) =>
      tx.roster.addUnit({ game_id: 'game1', name: 'Baker', owner_id: 'u1', owner_name: 'U', side: null, fields: {}, at: 'T' }),
    );
    expect(added.id).toBe(kept.id + 1);
    source.close();
    await store.close();
  });

  it('a copy that does not verify on arrival is reported, naming the guild', async () => {
    const source = Ledger.open(tmpDb());
    source.append(entry());
    const target = await PgLedger.connect(await freshDatabase(server!));
    // A target that changes what it is given (as a faulty proxy or a trigger might).
    await target.pool.query(
      "CREATE FUNCTION test_alter() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.result := 'altered'; RETURN NEW; END $$; CREATE TRIGGER test_alter BEFORE INSERT ON rolls FOR EACH ROW EXECUTE FUNCTION test_alter();",
    );
    await expect(importLedger(source, target)).rejects.toThrow(/^guild g1: the copy does not verify as the source did \(\{"ok":false,"count":0,/);
    source.close();
    await target.close();
  });
});

// The tampering the SQLite suite catches (tests/ledger/ledger.test.ts), done to a PostgreSQL ledger
// behind its append-only trigger: each is found, at the row it names.
describe.skipIf(!server)('tampering with a PostgreSQL ledger', () => {
  async function threeRows() {
    const ledger = await PgLedger.connect(await freshDatabase(server!));
    const rows = [await ledger.append(entry()), await ledger.append(entry({ result: 'rally' })), await ledger.append(entry({ result: 'rout' }))];
    await ledger.pool.query('ALTER TABLE rolls DISABLE TRIGGER rolls_no_change');
    return { ledger, rows };
  }
  const reason = { edited: 'hash does not match the row contents: the row was edited' };

  it('an edit inside the JSON dice', async () => {
    const { ledger, rows } = await threeRows();
    await ledger.pool.query(`UPDATE rolls SET dice = '[6]' WHERE id = $1`, [rows[0]!.id]);
    expect(await ledger.verify('g1')).toEqual({ ok: false, count: 0, broken: { id: rows[0]!.id, guildSeq: 1, reason: reason.edited } });
    await ledger.close();
  });

  it('a deleted row, found at the row after it', async () => {
    const { ledger, rows } = await threeRows();
    await ledger.pool.query('DELETE FROM rolls WHERE id = $1', [rows[1]!.id]);
    expect(await ledger.verify('g1')).toEqual({
      ok: false,
      count: 1,
      broken: { id: rows[2]!.id, guildSeq: 3, reason: 'position 3 where 2 was expected: a row before it was deleted or moved' },
    });
    await ledger.close();
  });

  it('two rows swapped', async () => {
    const { ledger, rows } = await threeRows();
    await ledger.pool.query('UPDATE rolls SET guild_seq = 99 WHERE id = $1', [rows[1]!.id]);
    await ledger.pool.query('UPDATE rolls SET guild_seq = 2 WHERE id = $1', [rows[2]!.id]);
    await ledger.pool.query('UPDATE rolls SET guild_seq = 3 WHERE id = $1', [rows[1]!.id]);
    expect(await ledger.verify('g1')).toEqual({
      ok: false,
      count: 1,
      broken: { id: rows[2]!.id, guildSeq: 2, reason: 'prev_hash does not match the hash of the row before it' },
    });
    await ledger.close();
  });
});
