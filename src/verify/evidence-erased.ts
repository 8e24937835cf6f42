import { snowflakeTime } from '../beacon/chain.js';
import type { ChainedRow } from '../ledger/chain.js';

/**
 * Discord-signed requests erased with a person's data. An erasure is a chained row of kind
 * `erasure`, naming no one: the interactions of the person's own requests it took
 * (`evidence_erased`), and of others' requests that named them (`evidence_naming`). A host could
 * write such a row to pass off a roll nobody asked for, so an erasure stands for a request only
 * where an honest one would: after the row, in its guild; for an interaction of the row's own time
 * (and the one its beacon round was bound to); and, for a person's own requests, taking every one
 * of theirs before it, never one convenient roll. What is left rests on the host's word, and every
 * verifier says so.
 */

/** An erased request as the evidence lookup gives it: the erasure row, and whether it was the person's own request. */
export type Erased = { erased: { row: string; guildId: string; guildSeq: number; at: string; own: boolean } };

/** The requests each erasure row says it took, by interaction (the first erasure naming one counts). */
export function erasedEvidence(rows: Iterable<ChainedRow>): Map<string, Erased> {
  const out = new Map<string, Erased>();
  for (const r of rows) {
    if (r.kind !== 'erasure') continue;
    const input = (r.input ?? {}) as { evidence_erased?: unknown; evidence_naming?: unknown };
    for (const [list, own] of [
      [input.evidence_erased, true],
      [input.evidence_naming, false],
    ] as const) {
      if (!Array.isArray(list)) continue;
      const erased = { row: r.id, guildId: r.guild_id, guildSeq: r.guild_seq, at: r.created_at, own };
      for (const id of list) if (typeof id === 'string' && !out.has(id)) out.set(id, { erased });
    }
  }
  return out;
}

/** How far a row's time may be from its interaction's snowflake (a beacon roll waits up to ten minutes). */
const WITHIN_MS = 15 * 60 * 1000;

/** Whether this erasure may stand for the row's request: undefined when it may, else why not. */
export function erasedProblem(r: ChainedRow, interaction: string, x: Erased['erased']): string | undefined {
  if (x.guildId !== r.guild_id || x.guildSeq <= r.guild_seq)
    return `erasure row ${x.row} comes before row ${r.id}, or is of another server: it erased nothing of it`;
  const asked = /^\d{1,20}$/.test(interaction) ? snowflakeTime(interaction) : Number.NaN;
  const late = Date.parse(r.created_at) - asked;
  if (!(Math.abs(late) <= WITHIN_MS))
    return `row ${r.id} names interaction ${interaction}, which is no Discord interaction of the row's time: an erasure cannot stand for it`;
  const beacon = (r.input as { beacon?: { interaction?: unknown } } | null)?.beacon?.interaction;
  if (beacon !== undefined && beacon !== interaction)
    return `row ${r.id} names interaction ${interaction}, but its beacon round was bound to ${String(beacon)}`;
  return undefined;
}

/**
 * A person's erasure takes all of their requests before it: one that takes some of a player's
 * rows' requests in this game and leaves others, or takes the requests of two players as one
 * person's, is named.
 */
export function partialErasure(
  rows: readonly ChainedRow[],
  erasedOf: (r: ChainedRow) => Erased['erased'] | undefined,
  evidenced: (r: ChainedRow) => boolean,
): string | undefined {
  const whose = new Map<string, { row: string; guildSeq: number; users: Set<string> }>();
  for (const r of rows) {
    const x = erasedOf(r);
    if (!x?.own) continue;
    const e = whose.get(x.row) ?? { row: x.row, guildSeq: x.guildSeq, users: new Set<string>() };
    e.users.add(r.user_id);
    whose.set(x.row, e);
  }
  for (const e of whose.values()) {
    if (e.users.size > 1) return `erasure row ${e.row} takes the requests of ${e.users.size} players as one person's: an erasure is of one person`;
    const [user] = e.users;
    const left = rows.find((r) => r.user_id === user && r.guild_seq < e.guildSeq && evidenced(r) && erasedOf(r) === undefined);
    if (left) return `erasure row ${e.row} takes some of a player's requests but leaves the one of row ${left.id}: an erasure takes all of a person's requests`;
  }
  return undefined;
}
