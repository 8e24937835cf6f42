import { nextRow } from '../../src/ledger/next-row.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import type { LedgerRow, NewEntry } from '../../src/ledger/rows.js';

/**
 * A row appended as the bot wrote rows before it committed to person fields (no salts, no chained
 * text): what a ledger from before that format holds, for tests of such ledgers.
 */
export function appendLegacy(ledger: Ledger, entry: NewEntry, at = new Date().toISOString()): LedgerRow {
  const head = ledger.db.prepare('SELECT guild_seq, hash FROM rolls WHERE guild_id = ? ORDER BY guild_seq DESC LIMIT 1').get(entry.guildId) as
    | { guild_seq: number; hash: string }
    | undefined;
  const row = nextRow(entry, head, at);
  const values = { ...row.stored, prev_hash: row.prev_hash, hash: row.hash };
  const cols = Object.keys(values);
  const info = ledger.db.prepare(`INSERT INTO rolls (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`).run(values);
  if (row.sealed)
    ledger.db
      .prepare('INSERT INTO sealed_payloads (roll_id, guild_id, salt, payload) VALUES (?, ?, ?, ?)')
      .run(row.fields.id, entry.guildId, row.sealed.salt, row.sealed.payload);
  return { ...row.fields, prev_hash: row.prev_hash, hash: row.hash, seq: Number(info.lastInsertRowid) };
}
