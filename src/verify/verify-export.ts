import { checkPackRolls, isPackRoll } from './pack-rolls.js';
import { editReason, gapReason, GENESIS_HASH, LINK_REASON, parsedCanonical, parsedRowHash, rowHash, type ChainReport } from '../ledger/chain.js';
import type { KeyRecord } from '../ledger/signing-keys.js';
import { fingerprintOf } from './receipt.js';
import type { BeaconCheck } from './beacon-precheck.js';
import { checkPromises, input, type Found, type GameVerdict, type PlainRolls, type Row } from './checks.js';
import { LineSplitter, type Utf8 } from './lines.js';
import { fastRow, type FastRow } from './fast-row.js';
import { committedHash } from '../ledger/committed-walk.js';
import { stillHeld, unlistedSalts } from './erased-salts.js';
import { bytesOfBase64, erasedEvidence, rowEvidenceOf, type EvidenceLookup, type SignedRequest } from './evidence.js';

/**
 * The one verification core of an export (design: one verifier, three doors): npm run verify and
 * verify.html feed it the file's bytes, through the same reader (lines.ts), a range at a time; each
 * range is walked by a `RangeWalk` (one, or one per worker thread), and `finishExport` joins them
 * and runs the same checks, giving the same report text, line for line, in every door.
 */

/** What `npm run verify` and verify.html conclude about one export. */
export type ExportReport = {
  ok: boolean;
  lines: string[];
  chains: { guildId: string; report: ChainReport }[];
  games: GameVerdict[];
  /** Keys chained in the export (trusted for its receipts), and the unchained key lines it carries (not trusted). */
  keys: { chained: ChainedKey[]; unchained: KeyRecord[] };
  /** The roll a receipt names, when asked for: its guild, row hash, and a void of it if any. */
  receiptRoll?: ReceiptRoll | undefined;
};

/**
 * What a reading is asked to look for beyond the checks: a pinned head's row, a receipt's roll; and
 * Discord's application key as the reader pinned it (parseDiscordKey), which its requests are checked under.
 */
export type LookFor = { head?: string | undefined; receiptRoll?: string | undefined; discordKey?: string | undefined };

/** A receipt key the chain itself records (a `key` row): trusted for receipts of its guild. */
export type ChainedKey = { guildId: string; fingerprint: string; public_key: string; valid_from: string; row: string };
export type ReceiptRoll = { id: string; guildId: string; hash: string; voided: string | null };

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

type Kept = SignedRequest | 'pending';

const EVIDENCE_KEY = '"evidence":{"interaction":"';
/** The interaction a plain row's input commits to (canonical JSON: `interaction` is its evidence's first key). */
const SIGNED_BY = /"evidence":\{"interaction":"(\d{1,20})"/;
/** Plain rows' interactions remembered, far more than an export chunk holds. */
const UNWANTED_WINDOW = 20_000;

/** An evidence line: a Discord-signed request by interaction, or `pending` (too young to export). */
function evidenceLine(v: Record<string, unknown>, n: number): { evidence: [string, Kept] } | { error: string } {
  const e = v as Partial<SignedRequest> & { interaction?: unknown; pending?: unknown };
  if (typeof e.interaction !== 'string') return { error: `line ${n}: an evidence line needs its interaction` };
  if (e.pending === true) return { evidence: [e.interaction, 'pending'] };
  if (typeof e.timestamp !== 'string' || typeof e.signature !== 'string' || typeof e.body !== 'string')
    return { error: `line ${n}: an evidence line needs its timestamp, signature and body` };
  return { evidence: [e.interaction, { timestamp: e.timestamp, signature: e.signature, body: e.body }] };
}

/** One line of an export: a row, an (unchained) key line, an evidence line, or why it is none. */
function parseLine(line: string, n: number): { row: Row } | { key: KeyRecord } | { evidence: [string, Kept] } | { error: string } | undefined {
  if (!line.trim()) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    // A file with lone CR line ends reads as one line: say what it is.
    return { error: line.includes('\r{') ? `line ${n} holds lone CR line ends: an export's lines end in LF (or CRLF)` : `line ${n} is not a JSON object` };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { error: `line ${n} is not a JSON object` };
  const evidence = (v as { evidence?: unknown }).evidence;
  if (evidence && typeof evidence === 'object') return evidenceLine(evidence as Record<string, unknown>, n);
  const key = (v as { signing_key?: KeyRecord }).signing_key;
  if (key && typeof key === 'object') return typeof key.public_key === 'string' ? { key } : { error: `line ${n}: a signing key needs its public_key` };
  const bad = REQUIRED.filter(([k, ok]) => !ok((v as Record<string, unknown>)[k]));
  if (bad.length) return { error: `line ${n} is not a ledger row: ${bad.map(([k, , what]) => `\`${k}\` must be ${what}`).join(', ')}` };
  return { row: v as Row };
}

/** What the promise checks read of a plain row: a row of no game, no reveal, no game event, no seal. */
// A pack roll is re-adjudicated against its pack row (pack-rolls.ts): it is kept whole.
const needsWhole = (r: Row) => r.game_id !== null || r.kind !== 'roll' || isPackRoll(r) || Boolean((r.outcome as { sealed?: boolean } | null)?.sealed);

/** One guild's rows within one range, in file order: where they start, where they end, where they break. */
export type Span = {
  first: { seq: number; prev: string; id: string };
  last: { seq: number; hash: string };
  count: number;
  /** Rows that held whose person values are erased (people.ts), and the salts gone from them. */
  erased: number;
  erasedSalts: string[];
  /** The salts the span's committed rows carry (still held when the export was made). */
  heldSalts: string[];
  broken?: { id: string; guildSeq: number; reason: string };
};

/** What a range of lines gave: per guild its span; the rows the checks need; errors and key lines by line. */
export type RangeResult = {
  spans: Record<string, Span>;
  kept: Row[];
  /** Plain rolls (no game, not sealed) by "guild channel system": their positions, in order. */
  plain: Record<string, number[]>;
  /** Errors as "line N …", N counted within the range (finishExport counts them in the file). */
  errors: string[];
  keys: KeyRecord[];
  /** Discord-signed requests, by interaction (evidence lines). */
  evidence: Map<string, Kept>;
  /** The latest time a row of this range commits (ISO text): the export's own time is the latest of all. */
  latest: string;
  rows: number;
  lines: number;
  bom: boolean;
  failure?: string | undefined;
  /** The pinned head's row, when the range holds it. */
  head?: { guildId: string; seq: number } | undefined;
  /** The receipt's roll, when the range holds it; a void of it, when the range holds that. */
  receipt: { roll?: { id: string; guildId: string; hash: string }; voided?: string };
};

/**
 * The lines of one range of the file, in order: each row's hash recomputed as it is read, its place
 * in its guild's chain checked against the row before it in this range (a worker checks its range;
 * finishExport joins the ranges); what the promise checks read is kept, a plain row's not.
 */
export class RangeWalk {
  private readonly spans = new Map<string, Span>();
  private readonly kept: Row[] = [];
  private readonly plain = new Map<string, number[]>();
  private readonly errors: string[] = [];
  private readonly keys: KeyRecord[] = [];
  private readonly evidence = new Map<string, Kept>();
  /** Interactions of rows kept whole here: their evidence lines are checked (evidence.ts). */
  private readonly wanted = new Set<string>();
  /** Interactions of recent rows not kept (plain rolls, checked for their chain only): their evidence lines are not held. */
  private readonly unwanted = new Set<string>();
  private rows = 0;
  private latest = '';
  private readonly splitter: LineSplitter;
  private head: RangeResult['head'];
  private readonly receipt: RangeResult['receipt'] = {};

  /** `atStart`: these are the file's first bytes (a worker's range is not); `utf8`: how this door decodes (lines.ts). */
  constructor(
    atStart = true,
    private readonly lookFor: LookFor = {},
    utf8?: Utf8,
  ) {
    this.splitter = new LineSplitter((line, n) => this.line(line, n), 1, atStart, utf8);
  }

  push(bytes: Uint8Array): void {
    this.splitter.push(bytes);
  }

  finish(): RangeResult {
    this.splitter.end();
    return {
      spans: Object.fromEntries(this.spans),
      kept: this.kept,
      plain: Object.fromEntries(this.plain),
      errors: this.errors,
      keys: this.keys,
      evidence: this.evidence,
      latest: this.latest,
      rows: this.rows,
      lines: this.splitter.lines - 1,
      bom: this.splitter.bom,
      failure: this.splitter.failure,
      head: this.head,
      receipt: this.receipt,
    };
  }

  private line(text: string, n: number): void {
    const fast = fastRow(text);
    if (fast && !fast.system.startsWith('pack:')) {
      this.plainRow(fast);
      this.noteTime(createdAtOf(text));
      const signed = fast && text.includes(EVIDENCE_KEY) ? SIGNED_BY.exec(text)?.[1] : undefined;
      if (signed) this.notWanted(signed);
      return;
    }
    const parsed = parseLine(text, n);
    if (!parsed) return;
    if ('error' in parsed) this.errors.push(parsed.error);
    else if ('key' in parsed) this.keys.push(parsed.key);
    else if ('evidence' in parsed) this.keepEvidence(...parsed.evidence);
    else this.row(parsed.row);
  }

  private row(r: Row): void {
    this.rows++;
    if (typeof r.created_at === 'string') this.noteTime(r.created_at);
    this.walk(r, holds(r));
    if (r.hash === this.lookFor.head) this.head = { guildId: r.guild_id, seq: r.guild_seq };
    if (this.lookFor.receiptRoll) this.noteReceipt(r, this.lookFor.receiptRoll);
    const signed = rowEvidenceOf(r)?.interaction;
    if (needsWhole(r)) {
      this.kept.push(r);
      if (signed) this.wanted.add(signed);
    } else {
      if (r.kind === 'roll') this.notePlain(r);
      if (signed) this.notWanted(signed);
    }
  }

  /**
   * An evidence line follows its rows in the export: held only when a row kept here names it, or
   * when its row may be in an earlier range. Those of plain rolls are dropped, so memory grows with
   * the rows kept whole, never with the export's size.
   */
  private keepEvidence(interaction: string, kept: Kept): void {
    if (this.unwanted.has(interaction) && !this.wanted.has(interaction)) return;
    this.evidence.set(interaction, kept);
  }

  /**
   * The latest row time, compared as text: the bot writes every time as ISO text of one width, and
   * a row of another form can only move the export's time later, which no pending line gains by.
   */
  private noteTime(at: string): void {
    if (at > this.latest) this.latest = at;
  }

  private notWanted(interaction: string): void {
    this.unwanted.add(interaction);
    // Evidence lines come right after their export chunk: the recent ones are enough to recognise.
    if (this.unwanted.size > UNWANTED_WINDOW) this.unwanted.delete(this.unwanted.values().next().value!);
  }

  /** A plain roll whose hash fast-row.ts saw hold: only its place in the chain and its position are read. */
  private plainRow(r: FastRow): void {
    this.rows++;
    this.walk(r, true);
    if (r.hash === this.lookFor.head) this.head = { guildId: r.guild_id, seq: r.guild_seq };
    if (r.id === this.lookFor.receiptRoll) this.receipt.roll ??= { id: r.id, guildId: r.guild_id, hash: r.hash };
    this.notePlain(r);
  }

  /** A plain roll's position, by where it was rolled: a game's check asks for those in its channel (PlainRolls). */
  private notePlain(r: Pick<Row, 'guild_id' | 'channel_id' | 'system' | 'guild_seq'>): void {
    const key = plainKey(r.guild_id, r.channel_id, String(r.system));
    const list = this.plain.get(key);
    if (list) list.push(r.guild_seq);
    else this.plain.set(key, [r.guild_seq]);
  }

  /** The row's place in its guild's chain, against the row before it in this range. */
  private walk(r: Pick<Row, 'id' | 'guild_id' | 'guild_seq' | 'prev_hash' | 'hash'> & Partial<Row>, holds: Holds): void {
    let span = this.spans.get(r.guild_id);
    if (!span) {
      span = {
        first: { seq: r.guild_seq, prev: r.prev_hash, id: r.id },
        last: { seq: r.guild_seq - 1, hash: r.prev_hash },
        count: 0,
        erased: 0,
        erasedSalts: [],
        heldSalts: [],
      };
      this.spans.set(r.guild_id, span);
    }
    if (span.broken) return;
    const at = { id: r.id, guildSeq: r.guild_seq };
    if (r.salts && typeof r.salts === 'object') for (const id of Object.keys(r.salts)) if (!span.heldSalts.includes(id)) span.heldSalts.push(id);
    if (r.guild_seq !== span.last.seq + 1) span.broken = { ...at, reason: gapReason(r.guild_seq, span.last.seq + 1) };
    else if (r.prev_hash !== span.last.hash) span.broken = { ...at, reason: LINK_REASON };
    else if (!holds) span.broken = { ...at, reason: editReason(r) };
    else {
      span.last = { seq: r.guild_seq, hash: r.hash };
      span.count++;
      if (typeof holds === 'object') {
        span.erased++;
        for (const id of holds.erased) if (!span.erasedSalts.includes(id)) span.erasedSalts.push(id);
      }
    }
  }

  private noteReceipt(r: Row, id: string): void {
    if (r.id === id && !this.receipt.roll) this.receipt.roll = { id: r.id, guildId: r.guild_id, hash: r.hash };
    if (r.kind === 'void' && r.parent_id === id) this.receipt.voided ??= String(input(r).reason ?? 'voided');
  }
}

/** Whether a row's hash holds; `erased`: it holds, and committed to person values whose salts (these) are gone. */
type Holds = boolean | { erased: readonly string[] };

/**
 * A row's hash recomputed: a row committing to its person fields (people.ts) by its chained text,
 * its plain values held to that text under the salts it carries; any other the fast way first
 * (chain.ts parsedRowHash), canonicalize deciding when that does not match.
 */
function holds(r: Row): Holds {
  if (r.chained === undefined || r.chained === null) return parsedRowHash(r.prev_hash, r as never) === r.hash || rowHash(r.prev_hash, r) === r.hash;
  if (typeof r.chained !== 'string') return false;
  const salts = new Map(Object.entries(r.salts && typeof r.salts === 'object' ? r.salts : {}).filter(([, v]) => typeof v === 'string'));
  // Side by side with its plain text first (committed-text.ts): an export's rows are parsed canonical text.
  const got = committedHash(
    rowHash,
    salts,
    (x: Row) => x as unknown as Record<string, unknown>,
    (x: Row) => parsedCanonical(x as never),
  )(r.prev_hash, r);
  if (typeof got === 'string') return false;
  return got.hash === r.hash && (got.erased.length ? { erased: got.erased } : true);
}

const plainKey = (guild: string, channel: string, system: string) => JSON.stringify([guild, channel, system]);

const CREATED_AT = '"created_at":"';
/** A plain row's time, read from its line (fast-row.ts checked its layout: `created_at` is in its tail). */
function createdAtOf(line: string): string {
  const at = line.lastIndexOf(CREATED_AT);
  return at < 0 ? '' : line.slice(at + CREATED_AT.length, line.indexOf('"', at + CREATED_AT.length));
}

/**
 * The export's signed requests as the checks look them up. One left out as pending carries the
 * export's own time, which the chain commits (the latest time its rows hold), so a request marked
 * pending is allowed only for a row younger than 15 minutes then (evidence.ts).
 */
function evidenceLookup(results: RangeResult[]): EvidenceLookup {
  const evidence = new Map(results.flatMap((r) => [...r.evidence]));
  // Erasure rows are not plain rolls: every range keeps them whole.
  const erased = erasedEvidence(results.flatMap((r) => r.kept));
  let latest = '';
  for (const r of results) if (r.latest > latest) latest = r.latest;
  const asOf = Date.parse(latest);
  const pending = { pending: true as const, asOf: Number.isFinite(asOf) ? asOf : undefined };
  return (id) => {
    const kept = evidence.get(id);
    return kept === 'pending' ? pending : (kept ?? erased.get(id));
  };
}

/** The ranges' plain-roll positions as the checks ask for them: the first strictly between two positions. */
function plainIndex(results: RangeResult[]): PlainRolls {
  const lists = new Map<string, number[][]>();
  for (const r of results) for (const [key, seqs] of Object.entries(r.plain)) lists.set(key, [...(lists.get(key) ?? []), seqs]);
  return (where, after, before) => {
    for (const seqs of lists.get(plainKey(where.guildId, where.channelId, where.system)) ?? []) {
      const seq = seqs.find((s) => s > after && s < before);
      if (seq !== undefined) return { seq };
    }
    return undefined;
  };
}

/** One guild's chain, joined from its spans in range order: each must start where the one before ended. */
function joinSpans(spans: Span[]): ChainReport {
  let last = { seq: 0, hash: GENESIS_HASH };
  let erased = 0;
  const erasedSalts = new Set<string>();
  for (const s of spans) {
    const at = { id: s.first.id, guildSeq: s.first.seq };
    if (s.first.seq !== last.seq + 1) return { ok: false, count: last.seq, broken: { ...at, reason: gapReason(s.first.seq, last.seq + 1) } };
    if (s.first.prev !== last.hash) return { ok: false, count: last.seq, broken: { ...at, reason: LINK_REASON } };
    // The rows that held: those of this span before the break (its last good position).
    if (s.broken) return { ok: false, count: s.last.seq, broken: s.broken };
    last = s.last;
    erased += s.erased;
    for (const id of s.erasedSalts) erasedSalts.add(id);
  }
  return { ok: true, count: last.seq, headHash: last.hash, ...(erased ? { erased, erasedSalts: [...erasedSalts] } : {}) };
}

function chainLines(results: RangeResult[]): Found & { chains: ExportReport['chains'] } {
  const guilds = new Map<string, Span[]>();
  for (const r of results) for (const [g, span] of Object.entries(r.spans)) guilds.set(g, [...(guilds.get(g) ?? []), span]);
  const lines: string[] = [];
  const chains = [...guilds.entries()].map(([guildId, spans]) => {
    const report = joinSpans(spans);
    lines.push(
      report.ok
        ? `guild ${guildId}: chain intact, ${report.count} rows, head hash ${report.headHash}${report.erased ? `; ${report.erased} of them hold a person's values that were erased (their commitments stay; dice, outcomes and every other value verified)` : ''}`
        : `guild ${guildId}: chain BROKEN at row ${report.broken.id} (position ${report.broken.guildSeq}): ${report.broken.reason}; ${report.count} rows before it hold`,
    );
    return { guildId, report };
  });
  return { ok: chains.every((c) => c.report.ok), lines, chains };
}

/** The chain extends the head a player pinned earlier (from /verify): it must be a row's hash in the export. */
function checkPinnedHead(chains: ExportReport['chains'], pinned: string, at: RangeResult['head']): Found {
  const head = pinned.trim().toLowerCase();
  if (!at) return { ok: false, lines: [`pinned head ${head}: NOT in this export: the chain was rewritten or cut short before it`] };
  const chain = chains.find((c) => c.guildId === at.guildId)?.report;
  return { ok: true, lines: [`pinned head ${head}: found at position ${at.seq} of guild ${at.guildId}; ${chain ? chain.count - at.seq : 0} rows after it`] };
}

/** Receipt keys the chain records (`key` rows): trusted for receipts of their own guild. */
function chainedKeys(kept: Row[]): ChainedKey[] {
  return kept
    .filter((r) => r.kind === 'key' && typeof input(r).public_key === 'string')
    .map((r) => ({
      guildId: r.guild_id,
      fingerprint: fingerprintOf(String(input(r).public_key)),
      public_key: String(input(r).public_key),
      valid_from: r.created_at,
      row: r.id,
    }));
}

/** What the export says of receipt keys: the chained ones (trusted), and the loose key lines (to compare by hand). */
function keyLines(chained: ChainedKey[], unchained: KeyRecord[]): string[] {
  return [
    ...chained.map((k) => `receipt key ${k.fingerprint}: ${k.public_key}, on the chain of guild ${k.guildId} since ${k.valid_from} (row ${k.row})`),
    ...unchained
      .filter((k) => !chained.some((c) => c.public_key === k.public_key))
      .map((k) => `receipt key ${fingerprintOf(k.public_key)}: ${k.public_key}, unchained: compare with /verify key:true before trusting it`),
  ];
}

/** Discord's application public key as a reader gives it (the Developer Portal's "Public Key"): 64 hex digits, else undefined. */
export const parseDiscordKey = (text: string): string | undefined => (/^[0-9a-f]{64}$/i.test(text.trim()) ? text.trim().toLowerCase() : undefined);

/** The applications the export's signed requests name (each body's `application_id`): Discord serves each one's key. */
export function applicationIds(results: RangeResult[]): string[] {
  const ids = new Set<string>();
  for (const r of results)
    for (const kept of r.evidence.values()) {
      // A request left out (pending) has no body to read.
      const body = typeof kept === 'object' && 'body' in kept ? kept.body : undefined;
      if (body === undefined) continue;
      try {
        const id = (JSON.parse(new TextDecoder().decode(bytesOfBase64(body))) as { application_id?: unknown }).application_id;
        if (typeof id === 'string' && /^\d{1,20}$/.test(id)) ids.add(id);
      } catch {
        // A body that is not an interaction names no application (its row's check says what it is).
      }
    }
  return [...ids].sort();
}

/** Unpinned, the game lines call the key the host's word: where Discord itself serves it, for the reader to pin. */
function applicationLines(results: RangeResult[], lookFor: LookFor): string[] {
  if (lookFor.discordKey) return [];
  return applicationIds(results).map(
    (id) =>
      `the signed requests name Discord application ${id}: Discord serves its key as verify_key at discord.com/api/v10/applications/${id}/rpc (npm run verify -- --discord-key fetch asks it)`,
  );
}

/** Errors renumbered from each range's own lines to the file's. */
function fileErrors(results: RangeResult[]): string[] {
  const out: string[] = [];
  let before = 0;
  for (const r of results) {
    for (const e of [...r.errors, ...(r.failure ? [r.failure] : [])]) out.push(e.replace(/^line (\d+)/, (_, n: string) => `line ${Number(n) + before}`));
    before += r.lines;
  }
  return out;
}

/**
 * The ranges joined (in file order) and every check run: each guild's chain, the pinned head, every
 * reveal and game (guild by guild), the receipt keys. The report lines are the same in every door.
 */
export function finishExport(results: RangeResult[], lookFor: LookFor = {}, beacons?: BeaconCheck): ExportReport {
  const kept = results.flatMap((r) => r.kept);
  const errors = fileErrors(results);
  const chains = chainLines(results);
  const pinned = lookFor.head ? [checkPinnedHead(chains.chains, lookFor.head, results.map((r) => r.head).find(Boolean))] : [];
  const promises = checkPromises(kept, plainIndex(results), beacons, evidenceLookup(results), lookFor.discordKey);
  // Erasure rows are kept whole by every range: each salt gone must be named by one (erased-salts.ts).
  const erasures = kept.filter((r) => r.kind === 'erasure');
  const held = new Map<string, string[]>();
  for (const r of results) for (const [g, span] of Object.entries(r.spans)) held.set(g, [...(held.get(g) ?? []), ...span.heldSalts]);
  const withheld = chains.chains.flatMap((c) => [
    unlistedSalts(c.guildId, (c.report.ok && c.report.erasedSalts) || [], erasures),
    stillHeld(c.guildId, held.get(c.guildId) ?? [], erasures),
  ]);
  // Pack rolls against their pack rows, each guild's in chain order (the bot's /verify streams the same check).
  const packs = checkPackRolls(kept);
  const rows = results.reduce((a, r) => a + r.rows, 0);
  const chained = chainedKeys(kept);
  const unchained = results.flatMap((r) => r.keys);
  const lines = [
    ...(results[0]?.bom ? ['the file starts with a byte-order mark: skipped'] : []),
    ...errors,
    ...chains.lines,
    ...withheld.flatMap((f) => f.lines),
    ...pinned.flatMap((f) => f.lines),
    ...promises.lines,
    ...applicationLines(results, lookFor),
    ...packs.lines,
    ...(rows || errors.length ? [] : ['the export has no rows']),
    ...keyLines(chained, unchained),
  ];
  const ok = !errors.length && rows > 0 && chains.ok && withheld.every((f) => f.ok) && pinned.every((f) => f.ok) && promises.ok && packs.ok;
  const roll = results.map((r) => r.receipt.roll).find(Boolean);
  const voided = results.map((r) => r.receipt.voided).find((v) => v !== undefined) ?? null;
  return { ok, lines, chains: chains.chains, games: promises.games, keys: { chained, unchained }, receiptRoll: roll ? { ...roll, voided } : undefined };
}

/** Verifies a whole export held in memory (tests, small files): one range. */
export function verifyExport(data: string | Uint8Array, lookFor: LookFor = {}): ExportReport {
  const walk = new RangeWalk(true, lookFor);
  walk.push(typeof data === 'string' ? new TextEncoder().encode(data) : data);
  return finishExport([walk.finish()], lookFor);
}
