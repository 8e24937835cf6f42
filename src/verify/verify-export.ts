import { rowHash, verifyChain, type ChainReport } from '../ledger/chain.js';
import type { KeyRecord } from '../ledger/signing-keys.js';
import { fingerprintOf } from './receipt.js';
import { checkPromises, type Found, type GameVerdict, type Row } from './checks.js';

/** What `npm run verify` concludes about one export. */
export type ExportReport = {
  ok: boolean;
  lines: string[];
  chains: { guildId: string; report: ChainReport }[];
  games: GameVerdict[];
  /** The receipt keys the export lists (the bot's, each with when it was in use). */
  keys: KeyRecord[];
};

/** The fields a row must carry, with their JSON type, so a malformed export is named, not crashed on. */
const REQUIRED: [string, (v: unknown) => boolean, string][] = [
  ['id', (v) => typeof v === 'string', 'text'],
  ['guild_id', (v) => typeof v === 'string', 'text'],
  ['guild_seq', (v) => Number.isInteger(v), 'a whole number'],
  ['kind', (v) => typeof v === 'string', 'text'],
  ['dice', (v) => Array.isArray(v) && v.every((d) => Number.isInteger(d)), 'a list of whole numbers'],
  ['prev_hash', (v) => typeof v === 'string', 'text'],
  ['hash', (v) => typeof v === 'string', 'text'],
];

/** One line of an export: a row, a receipt key, or why it is neither. */
function parseLine(line: string, n: number): { row: Row } | { key: KeyRecord } | { error: string } | undefined {
  if (!line.trim()) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return { error: `line ${n} is not a JSON object` };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { error: `line ${n} is not a JSON object` };
  const key = (v as { signing_key?: KeyRecord }).signing_key;
  if (key && typeof key === 'object') return typeof key.public_key === 'string' ? { key } : { error: `line ${n}: a signing key needs its public_key` };
  const bad = REQUIRED.filter(([k, ok]) => !ok((v as Record<string, unknown>)[k]));
  if (bad.length) return { error: `line ${n} is not a ledger row: ${bad.map(([k, , what]) => `\`${k}\` must be ${what}`).join(', ')}` };
  return { row: v as Row };
}

/** What the promise checks read of a plain row: a row of no game, no reveal, no game event, no seal. */
const needsWhole = (r: Row) => r.game_id !== null || r.kind !== 'roll' || Boolean((r.outcome as { sealed?: boolean } | null)?.sealed);

/**
 * Reads an export a line at a time (the Node verifier from a file stream, verify.html's worker from
 * the dropped file), so the text is never held whole. Each row's hash is recomputed as it is read;
 * a plain row whose hash holds is then kept slim (its place, its hashes and what the game checks
 * ask of it), so memory grows with what the checks need, not with the rows' contents.
 */
export class ExportReader {
  readonly rows: Row[] = [];
  readonly keys: KeyRecord[] = [];
  readonly errors: string[] = [];
  private lineNo = 0;

  push(line: string): void {
    const parsed = parseLine(line, ++this.lineNo);
    if (!parsed) return;
    if ('error' in parsed) this.errors.push(parsed.error);
    else if ('key' in parsed) this.keys.push(parsed.key);
    else this.rows.push(slim(parsed.row));
  }

  finish(options: { head?: string } = {}): ExportReport {
    return verifyRows(this.rows, this.errors, this.keys, options);
  }
}

/** Marks a row whose hash holds (computed once, here); a plain one loses what no check reads. */
function slim(r: Row): Row {
  const holds = rowHash(r.prev_hash, r) === r.hash;
  if (!holds || needsWhole(r)) return Object.assign(r, { [HOLDS]: holds });
  const { id, guild_id, guild_seq, channel_id, kind, game_id, system, prev_hash, hash, user_id, result } = r;
  return { id, guild_id, guild_seq, channel_id, kind, game_id, system, prev_hash, hash, user_id, result, [HOLDS]: true } as unknown as Row;
}

const HOLDS = Symbol('hash holds');
/** The chain walk's hash: the one computed as the row was read. */
const readHash = (_prev: string, r: Row) => ((r as unknown as Record<symbol, boolean>)[HOLDS] ? r.hash : rowHash(r.prev_hash, r));

/** Reads JSON Lines whole (tests, small exports): the same reader, fed every line. */
export function readJsonl(text: string): { rows: Row[]; errors: string[]; keys: KeyRecord[] } {
  const reader = new ExportReader();
  for (const line of text.split('\n')) reader.push(line);
  return { rows: reader.rows, errors: reader.errors, keys: reader.keys };
}

function checkChains(rows: Row[]): Found & { chains: ExportReport['chains'] } {
  const byGuild = new Map<string, Row[]>();
  // Pushed, never copied: a copy per row made this quadratic (20,000 rows took 2.8 s of it).
  for (const r of rows) {
    const list = byGuild.get(r.guild_id);
    if (list) list.push(r);
    else byGuild.set(r.guild_id, [r]);
  }
  const lines: string[] = [];
  const chains = [...byGuild.entries()].map(([guildId, list]) => {
    const report = verifyChain(
      [...list].sort((a, b) => a.guild_seq - b.guild_seq),
      readHash,
    );
    lines.push(
      report.ok
        ? `guild ${guildId}: chain intact, ${report.count} rows, head hash ${report.headHash}`
        : `guild ${guildId}: chain BROKEN at row ${report.broken.id} (position ${report.broken.guildSeq}): ${report.broken.reason}; ${report.count} rows before it hold`,
    );
    return { guildId, report };
  });
  return { ok: chains.every((c) => c.report.ok), lines, chains };
}

/** The chain extends the head a player pinned earlier (from /verify): it must be in the export. */
function checkPinnedHead(rows: Row[], pinned: string): Found {
  const head = pinned.trim().toLowerCase();
  const at = rows.find((r) => r.hash === head);
  if (!at) return { ok: false, lines: [`pinned head ${head}: NOT in this export: the chain was rewritten or cut short before it`] };
  const later = rows.filter((r) => r.guild_id === at.guild_id && r.guild_seq > at.guild_seq).length;
  return { ok: true, lines: [`pinned head ${head}: found at position ${at.guild_seq} of guild ${at.guild_id}; ${later} rows after it`] };
}

/**
 * Checks an export offline: each guild's hash chain (and that it extends a pinned head, when given);
 * every reveal against the commitment of its sealed roll; for every game, its rolls numbered 1..n in
 * chain order with no gap, duplicate or game roll left outside it; player seeds against their
 * commitments; and for every game whose server seed is revealed, every die recomputed.
 */
export function verifyExport(text: string, options: { head?: string } = {}): ExportReport {
  const { rows, errors, keys } = readJsonl(text);
  return verifyRows(rows, errors, keys, options);
}

function verifyRows(rows: Row[], errors: string[], keys: KeyRecord[], options: { head?: string }): ExportReport {
  const chains = checkChains(rows);
  const promises = checkPromises(rows);
  const found: Found[] = [chains, ...(options.head ? [checkPinnedHead(rows, options.head)] : []), promises];
  const lines = [...errors, ...found.flatMap((f) => f.lines)];
  if (!rows.length && !errors.length) lines.push('the export has no rows');
  for (const k of keys) lines.push(`receipt key ${fingerprintOf(k.public_key)}: ${k.public_key}, in use ${k.valid_from} to ${k.valid_until ?? 'now'}`);
  const ok = !errors.length && rows.length > 0 && found.every((f) => f.ok);
  return { ok, lines, chains: chains.chains, games: promises.games, keys };
}
