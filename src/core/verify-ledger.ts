import { sealCommitment, type ChainReport } from '../ledger/chain.js';
import type { LedgerRow } from '../ledger/rows.js';
import type { LedgerStore } from '../ledger/store.js';
import { isSealed } from '../render/review.js';
import { checkPromises, type Found, type GameVerdict, type Row } from '../verify/checks.js';

/** What /verify finds: the chain, then the promises beyond it, as the offline verifier checks them. */
export type LedgerVerdict = { chain: ChainReport; promises: Found & { games: GameVerdict[] }; payloads: Found; reveals: number };

const PAYLOAD_BATCH = 500;

/** Each kept sealed payload against the commitment its chained row holds: an edited payload is named. */
async function checkPayloads(store: LedgerStore, guildId: string, sealed: LedgerRow[]): Promise<Found> {
  const lines: string[] = [];
  for (let i = 0; i < sealed.length; i += PAYLOAD_BATCH) {
    const batch = sealed.slice(i, i + PAYLOAD_BATCH);
    const kept = await store.sealedPayloads(
      guildId,
      batch.map((r) => r.id),
    );
    for (const r of batch) {
      const p = kept.get(r.id);
      const committed = (r.outcome as { commitment?: string }).commitment;
      if (p && committed !== sealCommitment(p.salt, p.payload))
        lines.push(`sealed roll ${r.id}: its stored payload does not open its commitment: it was changed after the roll`);
    }
  }
  return { ok: !lines.length, lines };
}

/**
 * /verify in the bot checks what `npm run verify` checks offline, with the same code (verify/checks.ts):
 * the chain, every reveal against its commitment, every game's numbering, seeds and dice, each
 * player's sequence; and, which only the bot can, every sealed payload it keeps. The rows the
 * promises rest on (games' rows, reveals, sealed rolls, rolls in a game's channel) are gathered
 * in chunks; what is held is bounded by the games, not by the ledger.
 */
export async function verifyLedger(store: LedgerStore, guildId: string, upToGuildSeq?: number): Promise<LedgerVerdict> {
  const chain = await store.verifyInChunks(guildId, upToGuildSeq);
  const rows: LedgerRow[] = [];
  const sealed: LedgerRow[] = [];
  const gameChannels = new Set<string>();
  for await (const chunk of store.history.chunks({ guildId, kinds: 'all' })) {
    for (const r of chunk) {
      if (upToGuildSeq !== undefined && r.guild_seq > upToGuildSeq) continue;
      if (r.kind === 'game' && r.result === 'game_started') gameChannels.add(r.channel_id);
      if (isSealed(r)) sealed.push(r);
      const roll = r.kind === 'roll' || r.kind === 'reroll';
      if (r.kind === 'game' || r.kind === 'reveal' || isSealed(r) || r.game_id || (roll && gameChannels.has(r.channel_id))) rows.push(r);
    }
  }
  const promises = checkPromises(rows as unknown as Row[]);
  return { chain, promises, payloads: await checkPayloads(store, guildId, sealed), reveals: rows.filter((r) => r.kind === 'reveal').length };
}
