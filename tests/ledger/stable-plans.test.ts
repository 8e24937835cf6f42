import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { withStablePlan } from '../../src/ledger/database.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { tmpDb } from '../helpers/tmp.js';
import { tour } from '../helpers/tour.js';

/** The statement's text outside its string literals. */
const unquoted = (sql: string) =>
  sql
    .split("'")
    .filter((_, i) => i % 2 === 0)
    .join("''");

/** Null for every parameter of the statement: positional as a list, named as an object. */
function nullsFor(sql: string): unknown[] {
  const text = unquoted(sql);
  const named = [...text.matchAll(/[:@$]([A-Za-z_]\w*)/g)].map((m) => m[1]!);
  const positional = (text.match(/\?/g) ?? []).map(() => null);
  return named.length ? [Object.fromEntries(named.map((n) => [n, null]))] : positional;
}

describe('statements prepared with a stable plan', () => {
  it('write each parameter compared by equality as +?, and nothing else', () => {
    expect(withStablePlan('SELECT a FROM t WHERE g = ? AND u=? ORDER BY s DESC LIMIT ?')).toBe(
      'SELECT a FROM t WHERE g = +? AND u= +? ORDER BY s DESC LIMIT ?',
    );
    expect(withStablePlan('SELECT 1 FROM t WHERE a IS ? OR b IS NOT ? OR c <= ? OR d != @d OR e == :e')).toBe(
      'SELECT 1 FROM t WHERE a IS +? OR b IS NOT +? OR c <= +? OR d != +@d OR e == +:e',
    );
    expect(withStablePlan("SELECT 1 FROM t WHERE k = 'x = ?' AND v IN (?, ?) AND w > ? AND z = ?")).toBe(
      "SELECT 1 FROM t WHERE k = 'x = ?' AND v IN (?, ?) AND w > ? AND z = +?",
    );
    expect(withStablePlan('UPDATE t SET n = n + ?, m = ? WHERE id = ?')).toBe('UPDATE t SET n = n + ?, m = +? WHERE id = +?');
  });

  const seen: string[] = [];
  const prepare = Database.prototype.prepare;
  afterAll(() => {
    Database.prototype.prepare = prepare;
  });

  it('every statement the ledger prepares in a tour of every command has no bare parameter compared by equality, and the plan of the bare one', async () => {
    Database.prototype.prepare = function (this: Database.Database, sql: string) {
      seen.push(sql);
      return prepare.call(this, sql);
    } as typeof prepare;
    await tour('en');
    Database.prototype.prepare = prepare;
    const sources = [...new Set(seen)].filter((sql) => !/^\s*(PRAGMA|EXPLAIN)\b/i.test(sql));
    expect(sources.length).toBeGreaterThan(100);
    const ledger = Ledger.open(tmpDb());
    const raw = new Database(ledger.db.name);
    try {
      for (const sql of sources) {
        expect(unquoted(sql), sql).not.toMatch(/(=|\bIS(\s+NOT)?)\s*(\?|[:@$][A-Za-z_])/i);
        const bare = sql.replace(/ \+(\?|[:@$][A-Za-z_])/g, ' $1');
        const plan = (text: string) =>
          raw
            .prepare(`EXPLAIN QUERY PLAN ${text}`)
            .all(...nullsFor(text))
            .map((r) => (r as { detail: string }).detail);
        if (/^\s*(SELECT|WITH|UPDATE|DELETE|INSERT)/i.test(sql)) expect(plan(sql), sql).toEqual(plan(bare));
      }
    } finally {
      raw.close();
      ledger.close();
    }
  }, 120_000);
});
