import { createHash } from 'node:crypto';
import fs from 'node:fs';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalSql, ChainWalker, GENESIS_HASH, hashedSql, JSON_COLUMNS, MARK, storedCanonical } from '../../src/ledger/chain.js';
import { columnsHash, MARKED_FIELDS } from '../../src/ledger/committed-walk.js';
import { eraseCommitted } from '../../src/ledger/erase-committed.js';
import { sqliteSql } from '../../src/ledger/sql-runner.js';
import { type RawRow, withFullChained } from '../../src/ledger/rows.js';
import { fullChained } from '../../src/ledger/chained-overlay.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { ledgerEntry } from '../helpers/ledger.js';
import { tmpDb } from '../helpers/tmp.js';
import { wellFormed } from '../../src/util/text.js';

/** The attacker's view: the raw file, with the append-only triggers removed. */
function tamper(file: string, sql: string, ...params: unknown[]) {
  const db = new Database(file);
  db.exec('DROP TRIGGER IF EXISTS rolls_no_update; DROP TRIGGER IF EXISTS rolls_no_delete;');
  db.prepare(sql).run(...params);
  db.close();
}

/** A ledger of `n` rows whose /verify walks in worker threads from 10 rows on (cut in two on two cores, more on more). */
const built = (n: number) => {
  const file = tmpDb();
  const ledger = Ledger.open(file, { parallelVerifyFrom: 10 });
  const rows = Array.from({ length: n }, (_, i) => ledger.append(ledgerEntry({ unit: `U${i + 1}` })));
  return { file, ledger, rows };
};

/** The report of a walk that finds row `i` (from 0) edited. */
const editedAt = (rows: { id: string }[], i: number) => ({
  ok: false,
  count: i,
  broken: { id: rows[i]!.id, guildSeq: i + 1, reason: 'hash does not match the row contents: the row was edited' },
});

describe("the chain's canonical text as SQLite assembles it", () => {
  it('is byte for byte the text the append hashed, for any names and values, in a game and out of one', () => {
    const ledger = Ledger.open(tmpDb());
    const read = ledger.db.prepare(`SELECT *, ${canonicalSql()} AS sql_canonical, ${hashedSql()} AS sql_hashed FROM rolls WHERE id = ?`);
    const text = fc.string({ unit: 'binary', maxLength: 12 }).map(wellFormed);
    fc.assert(
      fc.property(text, text, fc.jsonValue(), fc.boolean(), fc.integer({ min: 1, max: 2 ** 40 }), (name, unit, input, inGame, turn) => {
        const game = inGame ? { gameId: 'game1', turn, phase: name, gameSeq: turn } : {};
        const row = ledger.append(ledgerEntry({ userName: name, unit, input, ...game }));
        const stored = read.get(row.id) as Record<string, unknown>;
        expect(stored.sql_canonical).toBe(storedCanonical(stored));
        // The row stores only the commitments of its chained text (people.ts): SQLite leaves it to the walk, which puts them in place.
        // Each entry's path starts at a field of the row (an input naming the player deep inside it puts a longer one first).
        const overlay = JSON.parse(String(stored.chained)) as [unknown[], unknown][];
        expect(overlay.map(([path]) => path[0])).toEqual(expect.arrayContaining(['user_id']));
        for (const [path] of overlay) expect(path[0]).toMatch(/^[a-z_]+$/);
        expect(stored.chained).toContain('[["user_id"],{"by":');
        expect(stored.sql_hashed).toBeNull();
        expect(fullChained(String(stored.sql_canonical), String(stored.chained))).toBe(row.chained);
        expect(withFullChained({ ...stored }).chained).toBe(row.chained);
        expect(createHash('sha256').update(`${row.prev_hash}${row.chained}`).digest('hex')).toBe(row.hash);
      }),
      { numRuns: 300 },
    );
    expect(ledger.verify('g1')).toMatchObject({ ok: true, count: 300 });
    ledger.close();
  });

  it("the walk's marked text is the canonical text with each person field's and JSON column's value between two marks, whatever the values", () => {
    const ledger = Ledger.open(tmpDb());
    const read = ledger.db.prepare(`SELECT *, ${canonicalSql(undefined, new Set(MARKED_FIELDS))} AS marked FROM rolls WHERE id = ?`);
    const text = fc.string({ unit: 'binary', maxLength: 12 }).map(wellFormed);
    fc.assert(
      fc.property(text, fc.option(text), fc.jsonValue(), fc.jsonValue(), fc.boolean(), (name, unit, input, outcome, inGame) => {
        const game = inGame ? { gameId: 'game1', turn: 1, phase: name, gameSeq: 1 } : {};
        const row = ledger.append(ledgerEntry({ userName: name, unit, input, outcome, ...game }));
        const stored = read.get(row.id) as Record<string, unknown> & { marked: string };
        const pieces = stored.marked.split(MARK);
        expect(pieces).toHaveLength(2 * MARKED_FIELDS.length + 1);
        expect(pieces.join('')).toBe(storedCanonical(stored));
        const values = pieces.filter((_, i) => i % 2 === 1);
        expect(values).toEqual(MARKED_FIELDS.map((k) => (JSON_COLUMNS.has(k) ? String(stored[k]) : JSON.stringify(stored[k] ?? null))));
      }),
      { numRuns: 200 },
    );
    ledger.close();
  });

  it("a mark's character put in a column, or an overlay naming a field no person is in, reads as the edit it is, here and in the workers", async () => {
    /** Row `at` edited by `sql`, in a chain of its own: the walk here and the workers' find it. */
    const found = async (sql: string, at: number) => {
      const { file, ledger, rows } = built(12);
      tamper(file, sql, rows[at]!.id);
      expect(ledger.verify('g1')).toEqual(editedAt(rows, at));
      expect(await ledger.verifyInChunks('g1')).toEqual(editedAt(rows, at));
      ledger.close();
    };
    // A control character raw in a JSON column: the marked text no longer cuts at the person fields' values.
    await found(`UPDATE rolls SET input = '{"note":"a${MARK}b"}' WHERE id = ?`, 3);
    // The same character where an honest row holds nothing (an empty input): the text unmarked is the honest one, the column is not.
    await found(`UPDATE rolls SET input = '{}${MARK}' WHERE id = ?`, 6);
    // An overlay given one more commitment, at a field that names no person: every reader puts it in, so the hash breaks.
    const c = `{"by":["0a"],"erasable":"${'f'.repeat(64)}"}`;
    await found(`UPDATE rolls SET chained = concat('[[["command"],${c}],', substr(chained, 2)) WHERE id = ?`, 2);
  });

  it("a player's name edited in one of their rows that store the same commitments is found at that row, here and in the workers", async () => {
    const file = tmpDb();
    const ledger = Ledger.open(file, { parallelVerifyFrom: 10 });
    const rows = Array.from({ length: 12 }, () => ledger.append(ledgerEntry({ userName: 'Ann', unit: 'Guard' })));
    expect(ledger.db.prepare('SELECT DISTINCT chained FROM rolls').all()).toHaveLength(1);
    tamper(file, "UPDATE rolls SET user_name = 'Bob' WHERE id = ?", rows[8]!.id);
    expect(ledger.verify('g1')).toEqual(editedAt(rows, 8));
    expect(await ledger.verifyInChunks('g1')).toEqual(editedAt(rows, 8));
    ledger.close();
  });

  it('reports whatever an edit did to a committed row as the reading of the whole text reports it (the PostgreSQL walk and the export)', async () => {
    const c = (ids: string[], h: string) => ({ by: ids, erasable: h.repeat(64) });
    const edits = fc.oneof(
      // The overlay: an entry added at any path, one dropped, a commitment's HMAC or salts changed.
      fc.record({
        path: fc.constantFrom(
          ['command'],
          ['unit'],
          ['zz'],
          ['dice'],
          ['input'],
          ['input', 'note'],
          ['input', 'zz'],
          ['outcome', 'steps', 0],
          ['outcome', 'steps', 5],
          ['user_id', 'x'],
        ),
        commitment: fc.constantFrom(c(['0a'], 'f'), c([], 'e')),
        at: fc.nat(3),
      }),
      fc.record({ drop: fc.nat(3) }),
      fc.record({ hmacOf: fc.nat(3) }),
      // The plain columns: a name, prose, a mark's character, a commitment copied in place of a value, text after a JSON value.
      fc.record({
        column: fc.constantFrom('unit', 'user_name', 'input', 'outcome', 'dice'),
        value: fc.constantFrom(
          'Bob',
          `{"note":"Ann aims"}${MARK}`,
          `{"note":"Ann${MARK} aims"}`,
          '{"note":{"by":["0a"],"erasable":"ffff"}}',
          '"Ann"',
          'null',
          '[4',
        ),
      }),
      fc.record({ append: fc.constantFrom('input', 'outcome', 'dice'), text: fc.constantFrom(',"input_x":"injected"', ',"outcome_x":1', ']', 'x', MARK) }),
    );
    // Rows naming the player in prose, and rows whose whole input or outcome is keyed by their id (committed whole).
    const shapes = [
      { input: { note: 'Ann aims' }, outcome: { steps: ['Ann', 1] } },
      { input: { u1: 'secret' }, outcome: { steps: [] } },
      { input: {}, outcome: { u1: 'x' } },
    ];
    await fc.assert(
      fc.asyncProperty(fc.nat(3), fc.array(fc.nat(2), { minLength: 4, maxLength: 4 }), fc.boolean(), edits, async (k, kinds, erase, edit) => {
        const ledger = Ledger.open(':memory:');
        const rows = kinds.map((s, i) => ledger.append(ledgerEntry({ userName: 'Ann', unit: i % 2 ? 'Guard' : null, ...shapes[s]! })));
        if (erase) await eraseCommitted(sqliteSql(ledger.db), 'u1', 'g1');
        ledger.db.exec('DROP TRIGGER IF EXISTS rolls_no_update; DROP TRIGGER IF EXISTS rolls_no_delete;');
        const id = rows[k]!.id;
        const set = (column: string, value: string) => ledger.db.prepare(`UPDATE rolls SET ${column} = ? WHERE id = ?`).run(value, id);
        if ('column' in edit) set(edit.column, edit.value);
        else if ('append' in edit) ledger.db.prepare(`UPDATE rolls SET ${edit.append} = ${edit.append} || ? WHERE id = ?`).run(edit.text, id);
        else {
          const { chained } = ledger.db.prepare('SELECT chained FROM rolls WHERE id = ?').get(id) as { chained: string };
          const overlay = JSON.parse(chained) as [unknown[], { by: string[]; erasable: string }][];
          if ('path' in edit) overlay.splice(edit.at % (overlay.length + 1), 0, [[...edit.path], edit.commitment]);
          else if ('drop' in edit) overlay.splice(edit.drop % overlay.length, 1);
          else overlay[edit.hmacOf % overlay.length]![1].erasable = 'a'.repeat(64);
          set('chained', canonicalJson(overlay));
        }
        // The last row edited by one who then hashes it again, as the whole-text reading reads it.
        if (k === 3) {
          const row = ledger.db.prepare('SELECT * FROM rolls WHERE id = ?').get(id) as RawRow & { chained: string };
          set(
            'hash',
            createHash('sha256')
              .update(`${row.prev_hash}${fullChained(storedCanonical(row), row.chained)}`)
              .digest('hex'),
          );
        }
        // The reading of the PostgreSQL walk: the row's columns, its text laid out in JavaScript, the overlay expanded in it.
        const salts = new Map(
          (ledger.db.prepare('SELECT salt_id, salt FROM people').all() as { salt_id: string; salt: string }[]).map((p) => [p.salt_id, p.salt]),
        );
        const whole = new ChainWalker<RawRow & { chained: string | null }>(columnsHash(salts));
        for (const row of ledger.db.prepare('SELECT * FROM rolls ORDER BY guild_seq').all() as (RawRow & { chained: string | null })[])
          if (whole.feed(row)) break;
        expect(ledger.verify('g1')).toEqual(whole.report());
        ledger.close();
      }),
      { numRuns: 200 },
    );
  });

  it('a BLOB after an honest erasure in its chunk: the erased rows read as erased, the BLOB as the edit', async () => {
    const file = tmpDb();
    const ledger = Ledger.open(file, { parallelVerifyFrom: 10 });
    const rows = Array.from({ length: 12 }, (_, i) => ledger.append(ledgerEntry(i < 3 ? { input: { u1: 'her note' } } : { userId: 'u2' })));
    await eraseCommitted(sqliteSql(ledger.db), 'u1', 'g1');
    expect(ledger.verify('g1')).toMatchObject({ ok: true, count: 12, erased: 3 });
    tamper(file, "UPDATE rolls SET user_name = X'00ff' WHERE id = ?", rows[7]!.id);
    expect(ledger.verify('g1')).toEqual(editedAt(rows, 7));
    expect(await ledger.verifyInChunks('g1')).toEqual(editedAt(rows, 7));
    ledger.close();
  });

  describe('what a second attacker found', () => {
    /** Twelve rows naming Ann in their note, in a file whose triggers are gone; the walk here, the workers', and the whole-text reading's reports. */
    const chainOf = () => {
      const file = tmpDb();
      const ledger = Ledger.open(file, { parallelVerifyFrom: 10 });
      const rows = Array.from({ length: 12 }, () => ledger.append(ledgerEntry({ userName: 'Ann', input: { note: 'Ann aims' } })));
      ledger.db.exec('DROP TRIGGER IF EXISTS rolls_no_update; DROP TRIGGER IF EXISTS rolls_no_delete;');
      const reports = async () => {
        const salts = new Map(
          (ledger.db.prepare('SELECT salt_id, salt FROM people').all() as { salt_id: string; salt: string }[]).map((p) => [p.salt_id, p.salt]),
        );
        const whole = new ChainWalker<RawRow & { chained: string | null }>(columnsHash(salts));
        for (const row of ledger.db.prepare('SELECT * FROM rolls ORDER BY guild_seq').all() as (RawRow & { chained: string | null })[])
          if (whole.feed(row)) break;
        return { here: ledger.verify('g1'), workers: await ledger.verifyInChunks('g1'), whole: whole.report() };
      };
      const last = rows[11]!;
      const rehash = (text: string) =>
        ledger.db.prepare('UPDATE rolls SET hash = ? WHERE id = ?').run(createHash('sha256').update(`${last.prev_hash}${text}`).digest('hex'), last.id);
      return { ledger, rows, last, reports, rehash };
    };

    it('a chained text stored as a BLOB, the plain values changed beside it: the edit is found', async () => {
      const { ledger, rows, last, reports } = chainOf();
      ledger.db
        .prepare("UPDATE rolls SET chained = ?, dice = '[6]', result = 'huzzah', user_name = 'Mallory' WHERE id = ?")
        .run(Buffer.from(last.chained!), last.id);
      expect(await reports()).toEqual({ here: editedAt(rows, 11), workers: editedAt(rows, 11), whole: editedAt(rows, 11) });
      ledger.close();
    });

    it('an input that is no JSON around a committed note, hashed as the marked reading once read it: the edit is found', async () => {
      const { ledger, rows, last, reports, rehash } = chainOf();
      ledger.db.prepare(`UPDATE rolls SET input = '{"a":x[,"note":"Ann aims"}' WHERE id = ?`).run(last.id);
      rehash(last.chained!.replace('"input":{"note":', '"input":{"a":x[,"note":'));
      expect(await reports()).toEqual({ here: editedAt(rows, 11), workers: editedAt(rows, 11), whole: editedAt(rows, 11) });
      ledger.close();
    });

    it("a whole chained text holding the mark's character, hashed again: every reading holds it alike, whatever else is in its chunk", async () => {
      const { ledger, rows, last, reports, rehash } = chainOf();
      const plain = storedCanonical({
        ...(ledger.db.prepare('SELECT * FROM rolls WHERE id = ?').get(last.id) as Record<string, unknown>),
        input: `{"a":"${MARK}"}`,
      });
      ledger.db.prepare('UPDATE rolls SET input = ?, chained = ? WHERE id = ?').run(`{"a":"${MARK}"}`, plain, last.id);
      rehash(plain);
      const held = await reports();
      expect(held.whole).toMatchObject({ ok: true, count: 12 });
      expect(held).toEqual({ here: held.whole, workers: held.whole, whole: held.whole });
      // A BLOB in another row of its chunk: that row is the edit, in every reading.
      ledger.db.prepare("UPDATE rolls SET channel_id = X'00' WHERE id = ?").run(rows[9]!.id);
      expect(await reports()).toEqual({ here: editedAt(rows, 9), workers: editedAt(rows, 9), whole: editedAt(rows, 9) });
      ledger.close();
    });

    it('a row below position 1, at a text or a BLOB, or past every row: the chain breaks there, as in the order of every row', async () => {
      for (const seq of [0, -1, 'x', Buffer.from([1]), 2 ** 62]) {
        const { ledger, rows, reports } = chainOf();
        const copy = {
          ...(ledger.db.prepare('SELECT * FROM rolls WHERE id = ?').get(rows[3]!.id) as Record<string, unknown>),
          seq: 1000,
          id: 'stray',
          guild_seq: seq,
        };
        const columns = Object.keys(copy);
        ledger.db.prepare(`INSERT INTO rolls (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`).run(...Object.values(copy));
        const got = await reports();
        const first = typeof seq === 'number' && seq < 1;
        expect(got.whole, String(seq)).toMatchObject({ ok: false, count: first ? 0 : 12, broken: { id: 'stray' } });
        expect({ here: got.here, workers: got.workers }, String(seq)).toEqual({ here: got.whole, workers: got.whole });
        ledger.close();
      }
    });
  });

  it('a BLOB stored in a column (json_quote refuses it) is reported as an edit at its row, not an error', async () => {
    const { file, ledger, rows } = built(12);
    tamper(file, "UPDATE rolls SET user_name = X'00ff' WHERE id = ?", rows[4]!.id);
    expect(ledger.verify('g1')).toEqual(editedAt(rows, 4));
    expect(await ledger.verifyInChunks('g1')).toEqual(editedAt(rows, 4));
    ledger.close();
  });
});

describe('/verify on a long chain: worker threads, one report', () => {
  it('an intact chain holds, the whole of it and up to a position, with the head hash of the last row', async () => {
    const { ledger, rows } = built(41);
    expect(await ledger.verifyInChunks('g1')).toEqual({ ok: true, count: 41, headHash: rows[40]!.hash });
    expect(await ledger.verifyInChunks('g1', 30)).toEqual({ ok: true, count: 30, headHash: rows[29]!.hash });
    expect(await ledger.verifyInChunks('nobody')).toEqual({ ok: true, count: 0, headHash: GENESIS_HASH });
    ledger.close();
  });

  const edited = 'hash does not match the row contents: the row was edited';
  it.each([
    ['an edit in the second half (the worker finds it)', "UPDATE rolls SET result = 'huzzah' WHERE id = ?", 30, 30, edited, 31],
    ['an edit in the first half', "UPDATE rolls SET result = 'huzzah' WHERE id = ?", 3, 3, edited, 4],
    ['an edit of the last row of the first half', "UPDATE rolls SET result = 'huzzah' WHERE id = ?", 19, 19, edited, 20],
    ['an edit of the first row of the second half', "UPDATE rolls SET result = 'huzzah' WHERE id = ?", 20, 20, edited, 21],
  ] as const)('%s is named at its row', async (_what, sql, at, count, reason, guildSeq) => {
    const { file, ledger, rows } = built(40);
    tamper(file, sql, rows[at]!.id);
    expect(await ledger.verifyInChunks('g1')).toEqual({ ok: false, count, broken: { id: rows[at]!.id, guildSeq, reason } });
    ledger.close();
  });

  it('a row deleted where the halves meet is found at the row after it, as one walk finds it', async () => {
    const { file, ledger, rows } = built(40);
    // The first half ends at position 20: without it, the first half ends at 19 and position 21 follows.
    tamper(file, 'DELETE FROM rolls WHERE id = ?', rows[19]!.id);
    const reason = 'position 21 where 20 was expected: a row before it was deleted or moved';
    expect(await ledger.verifyInChunks('g1', 40)).toEqual({ ok: false, count: 19, broken: { id: rows[20]!.id, guildSeq: 21, reason } });
    ledger.close();
  });

  it('workers that cannot open the file (it moved away under the open ledger): the walk is done here, the same report', async () => {
    const { file, ledger, rows } = built(40);
    fs.renameSync(file, `${file}.moved`);
    expect(await ledger.verifyInChunks('g1')).toEqual({ ok: true, count: 40, headHash: rows[39]!.hash });
    ledger.close();
    fs.renameSync(`${file}.moved`, file);
  });

  it('a row deleted in the second half is found at the row after it', async () => {
    const { file, ledger, rows } = built(40);
    tamper(file, 'DELETE FROM rolls WHERE id = ?', rows[32]!.id);
    const reason = 'position 34 where 33 was expected: a row before it was deleted or moved';
    expect(await ledger.verifyInChunks('g1')).toEqual({ ok: false, count: 32, broken: { id: rows[33]!.id, guildSeq: 34, reason } });
    ledger.close();
  });
});
