import { createHash, hash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

/** prev_hash of a guild's first row. */
export const GENESIS_HASH = '0'.repeat(64);

/** The fields of a ledger row that its hash covers (everything but the hashes and the global seq). */
export type ChainedFields = {
  id: string;
  guild_id: string;
  guild_seq: number;
  channel_id: string;
  user_id: string;
  user_name: string;
  game_id: string | null;
  /** Only on rows made in a game. */
  turn?: number | null;
  phase?: string | null;
  /** Dice rolls of a game are numbered from 1: the sequence that feeds its seeded dice. */
  game_seq?: number | null;
  command: string;
  system: string | null;
  kind: string;
  unit: string | null;
  input: unknown;
  dice: number[];
  outcome: unknown;
  result: string | null;
  parent_id: string | null;
  once_key: string | null;
  created_at: string;
};

/** `chained`: what the hash covers for a row that commits to its person fields (people.ts); null before that format. */
export type ChainedRow = ChainedFields & { prev_hash: string; hash: string; chained?: string | null };

export { canonicalJson };

/** hash = hex SHA-256 over the previous hash (hex text) followed by the row's canonical JSON. */
export function rowHash(prevHash: string, fields: ChainedFields & { chained?: string | null }): string {
  // A row committing to its person fields (people.ts) is hashed as its chained text.
  if (typeof fields.chained === 'string') return hash('sha256', prevHash + fields.chained);
  return createHash('sha256')
    .update(prevHash)
    .update(canonicalJson(pickChained(fields)))
    .digest('hex');
}

const CHAINED_KEYS: (keyof ChainedFields)[] = [
  'id',
  'guild_id',
  'guild_seq',
  'channel_id',
  'user_id',
  'user_name',
  'game_id',
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
];

/** Rows made in a game also cover the game's turn, phase and roll sequence. */
const GAME_KEYS: (keyof ChainedFields)[] = ['turn', 'phase', 'game_seq'];

/** Every column a hash may cover. */
export const CHAINED_COLUMNS: readonly string[] = [...CHAINED_KEYS, ...GAME_KEYS];

/** Sorted keys with their `"key":` text (and the comma before all but the first), computed once. */
const layoutOf = (keys: string[]) => [...keys].sort().map((k, i): [string, string] => [k, `${i ? ',' : ''}${JSON.stringify(k)}:`]);
const PLAIN_LAYOUT = layoutOf(CHAINED_KEYS);
const GAME_LAYOUT = layoutOf([...CHAINED_KEYS, ...GAME_KEYS]);
const PLAIN_KEYS = PLAIN_LAYOUT.map(([k]) => k);
const GAME_KEYS_SORTED = GAME_LAYOUT.map(([k]) => k);
/** The fields a row's hash covers, in the order its canonical text holds them. */
export const hashedKeys = (row: { game_id?: unknown }): readonly string[] => (row.game_id ? GAME_KEYS_SORTED : PLAIN_KEYS);

/** Only the chained fields, so extra columns (added by later migrations or exports) never change a hash. */
export function pickChained(row: ChainedFields): ChainedFields {
  const out: Record<string, unknown> = {};
  const keys = row.game_id ? [...CHAINED_KEYS, ...GAME_KEYS] : CHAINED_KEYS;
  for (const k of keys) out[k] = row[k] ?? null;
  return out as ChainedFields;
}

/**
 * rowHash, the fast way, for a row parsed from canonical text (an export's line): JSON.stringify
 * keeps a parsed object's keys in the order they came, which canonical text already sorted, so it
 * writes the same bytes as canonicalize without sorting anything (the verifier's hot path). When the
 * result is not the row's hash (an integer-like key, which JavaScript orders first, or an edit),
 * the caller asks rowHash, which decides.
 */
export function parsedRowHash(prevHash: string, row: Record<string, unknown>): string {
  return hash('sha256', `${prevHash}${parsedCanonical(row)}`);
}

/**
 * A row's canonical text laid out from its chained fields in JCS order, each value's text written by
 * `text`: one loop for every way a row's text is assembled (from a parsed row, a stored row, or the
 * writer's texts at hand).
 */
function laidOut(row: Record<string, unknown>, text: (key: string, value: unknown) => string): string {
  const layout = row.game_id ? GAME_LAYOUT : PLAIN_LAYOUT;
  let body = '{';
  for (let i = 0; i < layout.length; i++) {
    const [key, prefix] = layout[i]!;
    body += prefix + text(key, row[key]);
  }
  return `${body}}`;
}

/** The canonical text of a row parsed from canonical text, as parsedRowHash writes it (checked, never trusted, by its callers). */
export const parsedCanonical = (row: Record<string, unknown>): string => laidOut(row, (_, v) => JSON.stringify(v ?? null));

/**
 * The canonical text of a row's chained fields when some of them are at hand as canonical text
 * already (`texts`, by key): the writer canonicalises a row's input and outcome once for its plain
 * columns, and its chained text differs from them only where a value names a person.
 */
export const canonicalWith = (row: ChainedFields, texts: Readonly<Partial<Record<keyof ChainedFields, string>>>): string =>
  laidOut(row as unknown as Record<string, unknown>, (k, v) => texts[k as keyof ChainedFields] ?? canonicalJson(v ?? null));

/** The JSON columns, stored as the canonical text they were hashed as. */
export const JSON_COLUMNS: ReadonlySet<string> = new Set(['input', 'dice', 'outcome']);

/**
 * The same hash as rowHash, computed straight from a stored row whose JSON columns hold canonical
 * text: the canonical JSON of the row is assembled from them without parsing (verification speed).
 * JCS orders keys by code unit and writes strings and numbers as JSON.stringify does.
 */
export function storedRowHash(prevHash: string, row: Record<string, unknown>): string {
  // One-shot: a Hash object a row costs more than the hashing of its few hundred bytes.
  // A row that commits to its person fields (people.ts) is hashed as the text it stored for that.
  return hash('sha256', prevHash + (typeof row.chained === 'string' ? row.chained : storedCanonical(row)));
}

/** The canonical JSON of a stored row, the bytes its hash covers. */
export const storedCanonical = (row: Record<string, unknown>): string => laidOut(row, (k, v) => (JSON_COLUMNS.has(k) ? String(v) : JSON.stringify(v ?? null)));

/**
 * What canonicalSql writes on both sides of each marked field's value: canonical JSON never holds a
 * control character raw (JCS and json_quote escape every one), so the marks cut the text at those
 * columns' texts, unless a JSON column, stored raw, was edited to hold one (the reader then counts
 * the wrong pieces) or to hold more than one value (the reader checks each piece is one).
 */
export const MARK = '\u0001';

/**
 * The same bytes as storedCanonical, assembled by SQLite in the query (chain.test.ts holds them
 * equal): json_quote writes text and integers as JSON.stringify does, and the JSON columns are
 * already canonical text. The walk then reads one string a row instead of every column, the
 * hashing's share of a whole-chain check. A BLOB (only an attacker stores one) makes json_quote
 * fail: the caller falls back to storedCanonical, which reports the edit. `lead`: an SQL expression
 * written before the text, in the same allocation; `marked`: fields whose values are written
 * between MARKs (the walk's reading of a row that stores only its commitments).
 */
export function canonicalSql(lead?: string, marked?: ReadonlySet<string>): string {
  // concat() builds the text in one allocation (a chain of || copies it once per piece). A mark
  // goes inside the literal pieces around a value, so it costs no argument of its own.
  const assemble = (layout: [string, string][]) => {
    const parts: string[] = lead ? [lead] : [];
    let literal = '{';
    for (const [key, prefix] of layout) {
      const mark = marked?.has(key) ? MARK : '';
      parts.push(`'${literal}${prefix}${mark}'`, JSON_COLUMNS.has(key) ? `COALESCE(${key}, 'null')` : `json_quote(${key})`);
      literal = mark;
    }
    return `concat(${[...parts, `'${literal}}'`].join(', ')})`;
  };
  return `CASE WHEN game_id IS NOT NULL AND game_id <> '' THEN ${assemble(GAME_LAYOUT)} ELSE ${assemble(PLAIN_LAYOUT)} END`;
}

/**
 * Every byte a row's hash covers, assembled by SQLite: its prev_hash, then its canonical text. The
 * walk hashes one string as it comes, without joining two in JavaScript. NULL for a row that stored
 * only the commitments of its chained text (`[…]`): the walk puts that text together itself.
 */
export const hashedSql = () =>
  `CASE WHEN chained IS NULL THEN ${canonicalSql('prev_hash')} WHEN substr(chained, 1, 1) = '[' THEN NULL ELSE concat(prev_hash, chained) END`;

/** A row as the SQL walk reads it: its place, its hashes and the bytes its hash covers (hashedSql). */
export type CanonicalRow = { id: string; guild_seq: number; prev_hash: string; hash: string; hashed: string };

/**
 * The hash of a row read with hashedSql. Its text starts with the row's own prev_hash, which the
 * walker has already found equal to the hash before it (`prevHash`), so it is hashed as it comes.
 */
export const canonicalRowHash = (_prevHash: string, row: CanonicalRow) => hash('sha256', row.hashed);

export type ChainReport =
  /** `erased`: rows that held whose person values are erased (people.ts), and the salts gone, when there are any. */
  | { ok: true; count: number; headHash: string; erased?: number; erasedSalts?: string[] }
  | { ok: false; count: number; broken: { id: string; guildSeq: number; reason: string } };

/** What the walk reads of a row: its place in the chain and its hashes. */
type Chained = { id: string; guild_seq: number; prev_hash: string; hash: string };

/**
 * Walks a guild's chain row by row, in guild_seq order: `feed` returns the report once the chain
 * breaks; `report` gives the result so far. One walker serves a walk in one go and one in chunks.
 */
/** Why a row breaks its chain, in the words every verifier reports (the bot's walk and an export's reader). */
export const gapReason = (seq: number, expected: number) => `position ${seq} where ${expected} was expected: a row before it was deleted or moved`;
/** The report of a chain that breaks, after `count` rows, at a row no walk of positions 1 to n reads (a position below 1, or no number). */
export const strayReport = (row: { id: string; guild_seq: number }, count: number): ChainReport => ({
  ok: false,
  count,
  broken: { id: row.id, guildSeq: row.guild_seq, reason: gapReason(row.guild_seq, count + 1) },
});
export const LINK_REASON = 'prev_hash does not match the hash of the row before it';
/**
 * Before it was fixed, a lone surrogate in a name was hashed as its JSON escape but stored as U+FFFD:
 * such a row can never verify, and says so, rather than being called an edit.
 */
export const editReason = (row: unknown) =>
  JSON.stringify(row).includes('\uFFFD')
    ? 'hash does not match the row contents: the row holds U+FFFD where a lone surrogate was stored unlike it was hashed (a defect since fixed), unless it was edited'
    : 'hash does not match the row contents: the row was edited';

/** A row's hash as the walk recomputes it; `erased`: the salts of person values it committed to that are erased. */
export type WalkedHash = string | { hash: string; erased: readonly string[] };

export class ChainWalker<R extends Chained> {
  private prev: string;
  private count: number;
  private erased = 0;
  private readonly erasedSalts = new Set<string>();
  private broken: ChainReport | undefined;

  /** `from`: where a walk of part of the chain starts (the hash of the row before it, and that row's position). */
  constructor(
    private readonly hashOf: (prevHash: string, row: R) => WalkedHash = rowHash as never,
    from: { prev: string; count: number } = { prev: GENESIS_HASH, count: 0 },
  ) {
    this.prev = from.prev;
    this.count = from.count;
  }

  /** The report if this row breaks the chain (and every later call returns it), else undefined. */
  feed(row: R): ChainReport | undefined {
    if (this.broken) return this.broken;
    const expectedSeq = this.count + 1;
    if (row.guild_seq !== expectedSeq) return this.breakAt(row, gapReason(row.guild_seq, expectedSeq));
    if (row.prev_hash !== this.prev) return this.breakAt(row, LINK_REASON);
    const got = this.hashOf(row.prev_hash, row);
    if ((typeof got === 'string' ? got : got.hash) !== row.hash) return this.breakAt(row, editReason(row));
    if (typeof got !== 'string' && got.erased.length) {
      this.erased++;
      for (const id of got.erased) this.erasedSalts.add(id);
    }
    this.prev = row.hash;
    this.count++;
    return undefined;
  }

  /** Records where the chain broke (a method, not a closure made for every row the walk feeds). */
  private breakAt(row: R, reason: string): ChainReport {
    this.broken = { ok: false, count: this.count, broken: { id: row.id, guildSeq: row.guild_seq, reason } };
    return this.broken;
  }

  report(): ChainReport {
    return (
      this.broken ?? { ok: true, count: this.count, headHash: this.prev, ...(this.erased ? { erased: this.erased, erasedSalts: [...this.erasedSalts] } : {}) }
    );
  }
}

/**
 * Walks one guild's rows in chain order and reports the first that does not hold: a position out
 * of sequence (a row deleted or moved), a prev_hash that is not the previous row's hash, or a hash
 * that does not match the row's contents (an edit). `count` is the number of rows that held.
 */
export function verifyChain<R extends Chained>(rows: Iterable<R>, hashOf: (prevHash: string, row: R) => WalkedHash = rowHash as never): ChainReport {
  const walker = new ChainWalker(hashOf);
  for (const row of rows) if (walker.feed(row)) break;
  return walker.report();
}

/**
 * A sealed roll's commitment: SHA-256 over the salt (64 hex characters) followed by the canonical
 * JSON of its payload, as UTF-8. With a 256-bit secret salt, no search over the possible dice can
 * recover the payload from the commitment; the reveal publishes both, and anyone can recompute it.
 */
export function sealCommitment(salt: string, payload: unknown): string {
  return createHash('sha256')
    .update(salt + canonicalJson(payload)) // a string is hashed as UTF-8
    .digest('hex');
}
