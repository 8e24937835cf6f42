import { PackRollChecker } from '../verify/pack-rolls.js';
import { sealCommitment, type ChainReport } from '../ledger/chain.js';
import type { LedgerRow } from '../ledger/rows.js';
import type { LedgerStore } from '../ledger/store.js';
import { isSealed } from '../render/review.js';
import { invalidRoundsInWorkers } from '../beacon/verify-pool.js';
import { invalidRounds } from '../beacon/verify-round.js';
import { precheckBeacons } from '../verify/beacon-precheck.js';
import { checkPromises, checkReveals, type Found, type GameVerdict, type Row } from '../verify/checks.js';
import { recountTally, TallyCount, tallyId } from '../ledger/tally.js';
import { yieldToEventLoop } from '../util/yield.js';
import { erasedEvidence, rowEvidenceOf, type SignedRequest } from '../verify/evidence.js';
import { inflateRawSync } from 'node:zlib';
import { checkCommitted, saltIdsIn, saltIdsOf } from '../ledger/people.js';
import { erasedByRows, stillHeld, unlistedSalts } from '../verify/erased-salts.js';

/** What /verify finds: the chain, then the promises beyond it, as the offline verifier checks them. */
export type LedgerVerdict = {
  chain: ChainReport;
  promises: Found & { games: GameVerdict[] };
  payloads: Found;
  reveals: number;
  /** Pack rolls re-adjudicated against their pack rows. */
  packRolls: number;
  /** The dice report's aggregates against a recount from the rows (undefined when checking up to a roll). */
  tallies: (Found & { counted: number }) | undefined;
};

const PAYLOAD_BATCH = 500;

/** Rows as an export gives them to the checks: each committed row (people.ts) with the salts that open it (those not erased). */
async function withSalts(store: LedgerStore, rows: LedgerRow[]): Promise<Row[]> {
  const ids = [...new Set(rows.flatMap((r) => (r.chained ? saltIdsOf(r.chained) : [])))];
  const salts = new Map<string, string>();
  for (let i = 0; i < ids.length; i += PAYLOAD_BATCH) for (const [id, s] of await store.history.saltsOf(ids.slice(i, i + PAYLOAD_BATCH))) salts.set(id, s);
  return rows.map(
    (r) => (r.chained ? { ...r, salts: Object.fromEntries(saltIdsOf(r.chained).flatMap((id) => (salts.has(id) ? [[id, salts.get(id)!]] : []))) } : r) as Row,
  );
}

/** Each kept sealed payload against the commitment its chained row holds: an edited payload is named. */
async function checkPayloads(store: LedgerStore, guildId: string, sealed: Map<string, string | undefined>): Promise<Found> {
  const lines: string[] = [];
  const ids = [...sealed.keys()];
  for (let i = 0; i < ids.length; i += PAYLOAD_BATCH) {
    const batch = ids.slice(i, i + PAYLOAD_BATCH);
    const kept = await store.sealedPayloads(guildId, batch);
    for (const id of batch) {
      const p = kept.get(id);
      const beside = p?.committed === undefined || checkCommitted(p.payload, p.committed, await saltsFor(store, p.committed)).ok;
      if (p && (!beside || sealed.get(id) !== sealCommitment(p.salt, p.committed ?? p.payload)))
        lines.push(`sealed roll ${id}: its stored payload does not open its commitment: it was changed after the roll`);
    }
  }
  return { ok: !lines.length, lines };
}

/** The salts a committed value names that the ledger still keeps. */
async function saltsFor(store: LedgerStore, committed: unknown): Promise<Map<string, string>> {
  const ids = [...saltIdsIn(committed)];
  return ids.length ? await store.history.saltsOf(ids) : new Map();
}

const RECOUNT_CHUNK = 2_000;
/** Differences named at most: one is enough to say the report cannot be trusted. */
const MAX_TALLY_LINES = 5;

/** The guild's rolls recounted into aggregates, a chunk at a time (the count holds one entry per key, not per row). */
async function recount(store: LedgerStore, guildId: string): Promise<TallyCount> {
  const count = new TallyCount();
  for (let after = 0; ; ) {
    const rows = await store.recountRows(guildId, after, RECOUNT_CHUNK);
    if (!rows.length) return count;
    for (const r of rows) count.add(recountTally(r));
    after = rows[rows.length - 1]!.seq;
    await yieldToEventLoop();
  }
}

/** The differences between the stored aggregates and a recount from the rows, as lines. */
async function tallyDifferences(store: LedgerStore, guildId: string): Promise<{ lines: string[]; counted: number }> {
  const counted = await recount(store, guildId);
  const stored = new Map((await store.guildTallies(guildId)).map((t) => [tallyId(t), t]));
  const lines: string[] = [];
  const say = (what: string, has: number, should: number) => lines.push(`dice report: ${what}: the aggregates hold ${has}, the rows give ${should}`);
  for (const [id, t] of counted.counts)
    if (t.n !== (stored.get(id)?.n ?? 0)) say(`${t.shape} total ${t.total} (${t.command}, ${t.hour})`, stored.get(id)?.n ?? 0, t.n);
  for (const [id, t] of stored) if (!counted.counts.has(id)) say(`${t.shape} total ${t.total} (${t.command}, ${t.hour})`, t.n, 0);
  return { lines: lines.slice(0, MAX_TALLY_LINES), counted: counted.entries().reduce((a, t) => a + t.n, 0) };
}

/**
 * The aggregates checked against the rows. Rows appended while the recount runs would show as a
 * difference, so a difference counts only when the ledger did not move meanwhile (tried 3 times).
 */
async function checkTallies(store: LedgerStore, guildId: string): Promise<Found & { counted: number }> {
  for (let attempt = 0; ; attempt++) {
    const before = await store.rowTotal();
    const found = await tallyDifferences(store, guildId);
    if (!found.lines.length || (await store.rowTotal()) === before || attempt === 2) return { ok: !found.lines.length, ...found };
  }
}

/** Every row of a filter, up to a place in the chain. */
async function collect(store: LedgerStore, f: Parameters<LedgerStore['history']['chunks']>[0], upTo: number | undefined): Promise<LedgerRow[]> {
  const out: LedgerRow[] = [];
  for await (const chunk of store.history.chunks(f)) for (const r of chunk) if (upTo === undefined || r.guild_seq <= upTo) out.push(r);
  return out;
}

/**
 * One game's rows, as the shared checks need them: the game's own (start, seeds, rolls, end), the
 * reveals of its sealed rolls, and the rolls of its channel during it that are not its (they must
 * not exist). Held for this game only.
 */
async function gameRows(store: LedgerStore, start: LedgerRow, upTo: number | undefined): Promise<LedgerRow[]> {
  const gameId = start.game_id!;
  const own = await collect(store, { guildId: start.guild_id, gameId, kinds: 'all' }, upTo);
  const end = own.find((r) => r.kind === 'game' && r.result === 'game_ended');
  const window = { since: start.created_at, ...(end ? { until: end.created_at } : {}) };
  const channel = await collect(store, { guildId: start.guild_id, channelId: start.channel_id, kinds: ['roll', 'reroll'], ...window }, upTo);
  const revealedHere = new Set(own.filter((r) => r.kind === 'reveal').map((r) => r.parent_id));
  const reveals: LedgerRow[] = [];
  for (const s of own.filter((r) => isSealed(r) && !revealedHere.has(r.id))) {
    reveals.push(...(await store.children(start.guild_id, s.id)).filter((c) => c.kind === 'reveal' && (upTo === undefined || c.guild_seq <= upTo)));
  }
  return [...own, ...channel.filter((r) => r.game_id !== gameId), ...reveals];
}

/** The Discord-signed requests the bot keeps for these rows, as verifiers read them from an export. */
async function keptEvidence(store: LedgerStore, rows: Row[]): Promise<Map<string, SignedRequest>> {
  const ids = [...new Set(rows.map((r) => rowEvidenceOf(r)?.interaction).filter((id): id is string => id !== undefined))];
  const out = new Map<string, SignedRequest>();
  for (let i = 0; i < ids.length; i += PAYLOAD_BATCH) {
    for (const [id, e] of await store.history.evidenceOf(ids.slice(i, i + PAYLOAD_BATCH)))
      out.set(id, { timestamp: e.timestamp, signature: e.signature, body: inflateRawSync(e.body).toString('base64') });
  }
  return out;
}

/**
 * /verify in the bot checks what `npm run verify` checks offline, with the same code (verify/checks.ts):
 * the chain, every reveal against its commitment, every game's numbering, seeds and dice, each
 * player's sequence; and, which only the bot can, every sealed payload it keeps. One pass over the
 * guild's rows keeps only what is small (game starts, sealed rolls' commitments) and checks each
 * reveal outside a game at once; then each game is checked from its own rows. What is held at once
 * is bounded by one game, not by the ledger.
 */
export async function verifyLedger(store: LedgerStore, guildId: string, upToGuildSeq?: number): Promise<LedgerVerdict> {
  const chain = await store.verifyInChunks(guildId, upToGuildSeq);
  const starts: LedgerRow[] = [];
  const sealed = new Map<string, string | undefined>();
  const loose: Found = { ok: true, lines: [] };
  let reveals = 0;
  // Pack rolls are re-adjudicated as they stream past: only the server's few pack rows are held.
  const packRolls = new PackRollChecker();
  // A person's erasure names the signed requests it took: few rows, held to tell erased from missing.
  const erasures: LedgerRow[] = [];
  for await (const chunk of store.history.chunks({ guildId, kinds: 'all' })) {
    for (const r of chunk) {
      // An erasure after the roll asked about still says which of its rows' requests it took.
      if (r.kind === 'erasure') erasures.push(r);
      if (upToGuildSeq !== undefined && r.guild_seq > upToGuildSeq) continue;
      packRolls.note(r as Row);
      if (r.kind === 'game' && r.result === 'game_started' && r.game_id) starts.push(r);
      if (isSealed(r)) sealed.set(r.id, (r.outcome as { commitment?: string }).commitment);
      if (r.kind !== 'reveal') continue;
      reveals++;
      // A reveal in a game is checked with its game; one outside any, here, against its roll.
      if (r.game_id) continue;
      const roll = r.parent_id ? await store.get(guildId, r.parent_id) : undefined;
      const found = checkReveals(await withSalts(store, roll ? [roll, r] : [r]));
      loose.ok &&= found.ok;
      loose.lines.push(...found.lines);
    }
  }
  const packs = packRolls.found();
  // Person values count as erased only where an erasure row names their salt (erased-salts.ts).
  const unlisted = unlistedSalts(guildId, (chain.ok && chain.erasedSalts) || [], erasures);
  const back = stillHeld(guildId, (await store.history.saltsOf([...erasedByRows(guildId, erasures)])).keys(), erasures);
  const withheld = { ok: unlisted.ok && back.ok, lines: [...unlisted.lines, ...back.lines] };
  const promises = { ok: loose.ok && packs.ok && withheld.ok, lines: [...withheld.lines, ...loose.lines, ...packs.lines], games: [] as GameVerdict[] };
  const erased = erasedEvidence(erasures);
  for (const start of starts) {
    const rows = await withSalts(store, await gameRows(store, start, upToGuildSeq));
    // A beacon game's rounds are checked on worker threads: their hashing would stall every other command.
    const signed = await keptEvidence(store, rows);
    const found = checkPromises(rows, undefined, await precheckBeacons(rows, invalidRoundsInWorkers, invalidRounds), (id) => signed.get(id) ?? erased.get(id));
    promises.ok &&= found.ok;
    promises.games.push(...found.games);
    promises.lines.push(...found.lines);
  }
  const tallies = upToGuildSeq === undefined ? await checkTallies(store, guildId) : undefined;
  return { chain, promises, payloads: await checkPayloads(store, guildId, sealed), reveals, packRolls: packRolls.checked, tallies };
}
