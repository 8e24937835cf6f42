import { createHash } from 'node:crypto';
import fs from 'node:fs';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalSql, GENESIS_HASH, hashedSql, storedCanonical } from '../../src/ledger/chain.js';
import { fullChained } from '../../src/ledger/chained-overlay.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { withFullChained } from '../../src/ledger/rows.js';
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
        expect(stored.chained).toMatch(/^\[\[\["[a-z_]+"\],\{"by":/);
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

  it('a BLOB stored in a column (json_quote refuses it) is reported as an edit at its row, not an error', async () => {
    const { file, ledger, rows } = built(12);
    tamper(file, "UPDATE rolls SET user_name = X'00ff' WHERE id = ?", rows[4]!.id);
    const broken = { ok: false, count: 4, broken: { id: rows[4]!.id, guildSeq: 5, reason: 'hash does not match the row contents: the row was edited' } };
    expect(ledger.verify('g1')).toEqual(broken);
    expect(await ledger.verifyInChunks('g1')).toEqual(broken);
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
