import { createRequire } from 'node:module';

// Loaded on first use (/export).
const load = createRequire(import.meta.url);
let csv: typeof import('csv-stringify/sync') | undefined;
import type { RawRow } from '../ledger/rows.js';

/**
 * Every field of a row, hashes included, as stored: the JSON columns stay the canonical JSON text
 * the chain hashed, so an export never parses and re-serialises them (a million rows).
 */
export type ExportRow = RawRow & { message_id: string | null; salts?: Record<string, string> | undefined };

/** Columns whose stored text is JSON: spliced into a JSON line as values, not as strings. */
const JSON_COLUMNS = new Set<string>(['input', 'dice', 'outcome']);

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
export const toJsonl = (rows: ExportRow[]) => rows.map(jsonLine).join('\n') + (rows.length ? '\n' : '');

const KEYS = EXPORT_COLUMNS.map((c) => `${JSON.stringify(c)}:`);
function jsonLine(r: ExportRow): string {
  const parts = EXPORT_COLUMNS.map((c, i) => {
    const v = r[c];
    return KEYS[i] + (JSON_COLUMNS.has(c) && typeof v === 'string' ? v : JSON.stringify(v ?? null));
  });
  // A row committing to its person fields (people.ts) also carries what its hash covers and the salts that open it.
  const committed = r.chained ? `,"chained":${JSON.stringify(r.chained)},"salts":${JSON.stringify(r.salts ?? {})}` : '';
  return `{${parts.join(',')}${committed}}`;
}

/**
 * CSV for spreadsheets: commas, quotes and newlines quoted; a cell starting with =, +, - or @ is
 * prefixed with ' so a spreadsheet shows it as text instead of running it as a formula.
 */
export function toCsv(rows: ExportRow[], header = true): string {
  const cell = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  csv ??= load('csv-stringify/sync') as typeof import('csv-stringify/sync');
  return csv.stringify(
    rows.map((r) => EXPORT_COLUMNS.map((c) => cell(r[c]))),
    { header, columns: [...EXPORT_COLUMNS], escape_formulas: true, quoted_match: /[,"\n\r]/ },
  );
}
