import { sealCommitment, type ChainReport } from '../ledger/chain.js';
import type { LedgerRow } from '../ledger/rows.js';
import type { LedgerStore } from '../ledger/store.js';
import { isSealed } from '../render/review.js';
import { checkPromises, checkReveals, type Found, type GameVerdict, type Row } from '../verify/checks.js';

/** What /verify finds: the chain, then the promises beyond it, as the offline verifier checks them. */
export type LedgerVerdict = { chain: ChainReport; promises: Found & { games: GameVerdict[] }; payloads: Found; reveals: number };

const PAYLOAD_BATCH = 500;
const asRows = (rows: LedgerRow[]) => rows as unknown as Row[];

/** Each kept sealed payload against the commitment its chained row holds: an edited payload is named. */
async function checkPayloads(store: LedgerStore, guildId: string, sealed: Map<string, string | undefined>): Promise<Found> {
  const lines: string[] = [];
  const ids = [...sealed.keys()];
  for (let i = 0; i < ids.length; i += PAYLOAD_BATCH) {
    const batch = ids.slice(i, i + PAYLOAD_BATCH);
    const kept = await store.sealedPayloads(guildId, batch);
    for (const id of batch) {
      const p = kept.get(id);
      if (p && sealed.get(id) !== sealCommitment(p.salt, p.payload))
        lines.push(`sealed roll ${id}: its stored payload does not open its commitment: it was changed after the roll`);
    }
  }
  return { ok: !lines.length, lines };
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
  for await (const chunk of store.history.chunks({ guildId, kinds: 'all' })) {
    for (const r of chunk) {
      if (upToGuildSeq !== undefined && r.guild_seq > upToGuildSeq) continue;
      if (r.kind === 'game' && r.result === 'game_started' && r.game_id) starts.push(r);
      if (isSealed(r)) sealed.set(r.id, (r.outcome as { commitment?: string }).commitment);
      if (r.kind !== 'reveal') continue;
      reveals++;
      // A reveal in a game is checked with its game; one outside any, here, against its roll.
      if (r.game_id) continue;
      const roll = r.parent_id ? await store.get(guildId, r.parent_id) : undefined;
      const found = checkReveals(asRows(roll ? [roll, r] : [r]));
      loose.ok &&= found.ok;
      loose.lines.push(...found.lines);
    }
  }
  const promises = { ok: loose.ok, lines: [...loose.lines], games: [] as GameVerdict[] };
  for (const start of starts) {
    const found = checkPromises(asRows(await gameRows(store, start, upToGuildSeq)));
    promises.ok &&= found.ok;
    promises.games.push(...found.games);
    promises.lines.push(...found.lines);
  }
  return { chain, promises, payloads: await checkPayloads(store, guildId, sealed), reveals };
}
