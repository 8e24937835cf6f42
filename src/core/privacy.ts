import type { ErasureBlock, PersonalCounts, PersonalSummary, SideErasure } from '../ledger/personal-data.js';
import { parseRow } from '../ledger/rows.js';
import { ERASED } from '../ledger/personal-data.js';
import type { LedgerStore } from '../ledger/store.js';
import { changeOutcome } from './roster-unit.js';
import type { Attachment } from './command.js';
import { refuse } from './user-error.js';
import { userText } from '../render/embed.js';
import { command, list, said, type Said } from '../i18n/said.js';

/**
 * A person's own data: what is kept (counts), all of it as a file, and its erasure, which visits
 * every guild where something of theirs is kept. Rows that commit to their person fields lose the
 * values and keep their hashes (erase-committed.ts); rows from before that keep their names (their
 * hashes cover them); everything beside the chain is erased, and each guild's chain records that an
 * erasure happened, naming no one, with the salts it deleted and the interactions whose signed
 * requests it took, so a verifier reports those rows as erased rather than edited or missing.
 */

/** The order /privacy lists what is kept, and each item's sentence. */
const ITEMS: [keyof PersonalCounts, Parameters<typeof said>[0]][] = [
  ['rows', 'privacy.rows'],
  ['units', 'privacy.units'],
  ['requests', 'privacy.requests'],
  ['clockTurns', 'privacy.clockTurns'],
  ['reminders', 'privacy.reminders'],
  ['savedQueries', 'privacy.savedQueries'],
  ['evidence', 'privacy.evidence'],
  ['beaconBindings', 'privacy.beaconBindings'],
  ['games', 'privacy.games'],
];

/** Each kind of data kept, as a sentence with its count (only those there are). */
export function keptLines(counts: Partial<PersonalCounts>, here?: Partial<PersonalCounts>): Said[] {
  return ITEMS.filter(([k]) => (counts[k] ?? 0) > 0).map(([k, key]) => said(key, { n: counts[k]!, here: here?.[k] ?? 0 }));
}

export const isEmpty = (s: PersonalSummary) => s.byGuild.length === 0;

/** The file /privacy export attaches, written a chunk at a time and refused as soon as it passes what the reply may carry. */
export async function personalFile(store: LedgerStore, userId: string, at: string, limit: number): Promise<{ file: Attachment; rows: number; side: number }> {
  const parts: string[] = [];
  let bytes = 0;
  let rows = 0;
  let side = 0;
  const put = (text: string) => {
    bytes += Buffer.byteLength(text);
    if (bytes > limit) refuse('privacyExportTooBig', { rows, max: Math.round((limit / 1048576) * 10) / 10 });
    parts.push(text);
  };
  put(`{"format":"morale-officer personal data 1","user_id":${JSON.stringify(userId)},"exported_at":${JSON.stringify(at)},"servers":[`);
  const { byGuild } = await store.personal.summary(userId);
  for (const [g, { guildId }] of byGuild.entries()) {
    put(`${g ? ',' : ''}\n{"guild_id":${JSON.stringify(guildId)},"rows":[`);
    let first = true;
    for await (const chunk of store.personal.rows(userId, guildId)) {
      for (const r of chunk) {
        put(`${first ? '' : ','}\n${JSON.stringify({ ...parseRow(r), seq: Number(r.seq), guild_seq: Number(r.guild_seq) })}`);
        first = false;
        rows++;
      }
    }
    const kept = await store.personal.side(userId, guildId);
    side += Object.values(kept).reduce((a, v) => a + v.length, 0);
    put(`],\n"beside":${JSON.stringify(kept)}}`);
  }
  put(']}\n');
  return { file: { name: `my-data-${at.slice(0, 10)}.json`, data: Buffer.from(parts.join('')), description: 'Your data, as this bot keeps it' }, rows, side };
}

/** The chained row saying a guild's erasure happened: it names no one, only what went. */
function erasureEntry(guildId: string, side: SideErasure) {
  return {
    guildId,
    channelId: ERASED,
    userId: ERASED,
    userName: ERASED,
    command: 'privacy',
    system: null,
    kind: 'erasure',
    // The salts' ids are random: they name no one, and tell a verifier which commitments this erasure closed.
    input: { erased: side.counts, evidence_erased: side.evidence, evidence_naming: side.naming, salts_erased: side.chain.salts },
    dice: [],
    outcome: changeOutcome('unknown', 'erased', 'Personal data erased', "A person's data beside the record was erased; their rows stay, with their dice."),
    result: 'erased',
  };
}

/** `rowsErased`: their rows whose name, id and typed text left (committed rows); `rowsKept`: older rows, which keep them. */
export type ErasureReport = { guilds: number; erased: SideErasure['counts']; rowsErased: number; rowsKept: number };

/**
 * Erases a person everywhere something of theirs is kept, a guild at a time (each its own
 * transaction, under its guild's lock): the side tables, then the erasure's chained row. Refused
 * while a roll of theirs waits for its beacon round (that roll is made from what would be erased).
 */
export async function erasePerson(store: LedgerStore, userId: string): Promise<ErasureReport> {
  const blocked = (block: ErasureBlock | undefined) => {
    if (block && 'pendingBinding' in block) refuse('privacyBindingWaits', { round: block.pendingBinding.round });
    if (block && 'runningGame' in block) refuse('privacyGameRuns', { game: userText(block.runningGame.game), end: command('game end') });
    if (block) refuse('privacySeedWaits', { game: userText(block.unrevealedSeed.game), seed: command('game seed') });
  };
  blocked(await store.personal.erasureBlock(userId));
  const summary = await store.personal.summary(userId);
  const erased = { units: 0, requests: 0, clockTurns: 0, reminders: 0, savedQueries: 0, evidence: 0, beaconBindings: 0, games: 0 };
  let rowsErased = 0;
  for (const { guildId } of summary.byGuild) {
    // Others' requests naming them are found first, reading every kept body, outside the transaction.
    const naming = await store.personal.naming(userId, guildId);
    await store.transaction(async (tx) => {
      blocked(await tx.personal.erasureBlock(userId));
      const side = await tx.personal.eraseSide(userId, guildId, tx.timestamp(), naming);
      for (const k of Object.keys(erased) as (keyof typeof erased)[]) erased[k] += side.counts[k];
      // A guild where only chained rows were kept has nothing beside them to erase, nor to record.
      if (Object.values(side.counts).some((n) => n > 0) || side.naming.length || side.chain.salts.length) await tx.append(erasureEntry(guildId, side));
      rowsErased += side.chain.rows;
    }, guildId);
  }
  return { guilds: summary.byGuild.length, erased, rowsErased, rowsKept: summary.total.legacyRows };
}

/** What an erasure took, as one list of sentences (nothing: said so). */
export const erasedList = (r: ErasureReport) => {
  const lines = [...(r.rowsErased ? [said('privacy.rowsErased', { n: r.rowsErased })] : []), ...keptLines(r.erased)];
  return lines.length ? list(lines, 'semicolon') : said('privacy.nothingBeside');
};
