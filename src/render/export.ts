import { createRequire } from 'node:module';

// Loaded on first use (/export).
const load = createRequire(import.meta.url);
let csv: typeof import('csv-stringify/sync') | undefined;
import type { LedgerRow } from '../ledger/ledger.js';

/** Every field of a row, hashes included, as exported (JSON values stay JSON). */
export type ExportRow = LedgerRow & { message_id: string | null };

export const EXPORT_COLUMNS = [
  'seq',
  'id',
  'guild_id',
  'guild_seq',
  'channel_id',
  'user_id',
  'user_name',
  'game_id',
  'turn',
  'phase',
  'game_seq',
  'command',
  'system',
  'kind',
  'unit',
  'input',
  'dice',
  'outcome',
  'result',
  'parent_id',
  'once_key',
  'created_at',
  'prev_hash',
  'hash',
  'message_id',
] as const;

/** One JSON object per line: what `npm run verify` reads back. */
export const toJsonl = (rows: ExportRow[]) => rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : '');

/**
 * CSV for spreadsheets: commas, quotes and newlines quoted; a cell starting with =, +, - or @ is
 * prefixed with ' so a spreadsheet shows it as text instead of running it as a formula.
 */
export function toCsv(rows: ExportRow[], header = true): string {
  const cell = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
  csv ??= load('csv-stringify/sync') as typeof import('csv-stringify/sync');
  return csv.stringify(
    rows.map((r) => EXPORT_COLUMNS.map((c) => cell(r[c as keyof ExportRow]))),
    { header, columns: [...EXPORT_COLUMNS], escape_formulas: true, quoted_match: /[,"\n\r]/ },
  );
}
