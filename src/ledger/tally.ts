import { scopeWhere, type ScopeFilter } from './common-sql.js';
import { isSystemId, RULE_SYSTEMS, type OriginalDice } from '../rules/systems.js';
import { readColumn, type SealedPayload } from './rows.js';

/**
 * The dice report's aggregates: for each key, how many counted rolls had each Original
 * total. A roll counts once its result is public (at once, or at its reveal when sealed) and never
 * once voided. The ledger keeps them in the transaction that appends the roll, its reveal or its
 * void; a migration fills them from older rows; /verify recounts them from the rows. All three
 * read a row through `tallyOf`, so they cannot disagree on what a row adds.
 */

export const TALLY_KEY = ['guild_id', 'channel_id', 'game_id', 'side', 'user_id', 'system', 'command', 'category', 'shape', 'hour'] as const;
export type TallyKey = Record<(typeof TALLY_KEY)[number], string>;
export type Tally = TallyKey & { total: number };
export type StoredTally = Tally & { n: number };

/**
 * What a dice roll (/dr, /roll dice) declares it adds: its dice shape and its Original total. It is
 * filed under the outcome's own `category` and `side`, when it has them.
 */
export type DeclaredTally = { shape: string; total: number };
type Filed = { tally?: DeclaredTally; category?: string; side?: string };

/**
 * A built-in system's roll counts its Original roll (ASL's 2d6, Hearts of Tin's d6, Lightning War's
 * 3d6: `originalDice` in the list of systems, count and sides: nothing here assumes d6). Later dice of the same row (a Wound dr, a chained
 * Heat of Battle DR) depend on the first, so they would not follow a fixed distribution and are
 * left out. A rule pack's rolls and /roll declare their own tally.
 */
const builtInDice = (system: string): OriginalDice | undefined => (isSystemId(system) ? RULE_SYSTEMS[system].originalDice : undefined);

/** Which systems' Original dice the tally reads: the built-in list (a test gives a system of its own). */
export type SystemDice = (system: string) => OriginalDice | undefined;

/** The Original roll a row's first dice are, as its system declares them: its shape (`1d10`) and total. */
function originalTally(row: TallySource, systems: SystemDice): DeclaredTally | undefined {
  const o = row.system ? systems(row.system) : undefined;
  if (!o?.count || row.dice.length < o.count) return undefined;
  return { shape: `${o.count}d${o.sides}`, total: row.dice.slice(0, o.count).reduce((a, b) => a + b, 0) };
}

/** The parts of a row a tally is read from. */
export type TallySource = {
  guild_id: string;
  channel_id: string;
  game_id: string | null;
  user_id: string;
  system: string | null;
  command: string;
  kind: string;
  created_at: string;
  dice: number[];
  outcome: unknown;
};

const isSealedOutcome = (outcome: unknown) => (outcome as { sealed?: unknown } | null)?.sealed === true;

/** The row kind of a beacon game's roll that expired unrolled: its round never reached the bot in time. */
export const EXPIRY_KIND = 'expiry';

/**
 * Expiries are counted beside the rolls, as a shape of their own with no total: /stats says them
 * per player (a host's relay that withholds the rounds he dislikes shows there), never as dice.
 */
export const EXPIRED_SHAPE = 'expired';

/** The shape and Original total a row adds, if it adds one. */
function foundOf(row: TallySource, o: Filed, systems: SystemDice): DeclaredTally | undefined {
  if (row.kind === EXPIRY_KIND) return { shape: EXPIRED_SHAPE, total: 0 };
  if ((row.kind !== 'roll' && row.kind !== 'reroll') || isSealedOutcome(row.outcome)) return undefined;
  return o.tally ?? originalTally(row, systems);
}

/** What a public roll (or an expiry) adds to the report, or undefined when it adds nothing (not a roll, sealed, no dice). */
export function tallyOf(row: TallySource, systems: SystemDice = builtInDice): Tally | undefined {
  const o = (row.outcome ?? {}) as Filed;
  const found = foundOf(row, o, systems);
  if (!found) return undefined;
  return {
    guild_id: row.guild_id,
    channel_id: row.channel_id,
    game_id: row.game_id ?? '',
    side: o.side ?? '',
    user_id: row.user_id,
    system: row.system ?? '',
    command: row.command,
    category: o.category ?? '',
    shape: found.shape,
    hour: row.created_at.slice(0, 13),
    total: found.total,
  };
}

/** A roll as it reads once revealed: the payload's dice and outcome in place of the commitment. */
export const revealedSource = <R extends TallySource>(row: R, payload: Pick<SealedPayload, 'dice' | 'outcome'>): R => ({
  ...row,
  dice: payload.dice,
  outcome: payload.outcome,
});

/** The roll a reveal or a void points at, with whether it is voided and what its reveal published. */
export type ParentState = { row: TallySource; voided: boolean; revealed?: Pick<SealedPayload, 'dice' | 'outcome'> | undefined };

/**
 * What appending this row does to the report: a public roll adds itself; a reveal adds its roll
 * (unless voided); a void takes its roll away (if it was counted). `parent` is needed for the
 * last two (see needsParent).
 */
export function tallyDelta(row: TallySource & { input: unknown }, parent: ParentState | undefined): { tally: Tally; delta: 1 | -1 } | undefined {
  if (row.kind === 'reveal') {
    // A reveal from before sealed payloads existed publishes none: its roll kept its result itself.
    const payload = (row.input as { payload?: SealedPayload } | null)?.payload;
    if (!parent || parent.voided || !payload) return undefined;
    const t = tallyOf(revealedSource(parent.row, payload));
    return t && { tally: t, delta: 1 };
  }
  if (row.kind === 'void') {
    // An expiry stays counted whatever a GM marks on it: it is the record of a round not delivered.
    if (!parent || parent.row.kind === EXPIRY_KIND) return undefined;
    const sealed = isSealedOutcome(parent.row.outcome);
    const t = sealed ? parent.revealed && tallyOf(revealedSource(parent.row, parent.revealed)) : tallyOf(parent.row);
    return t && { tally: t, delta: -1 };
  }
  const t = tallyOf(row);
  return t && { tally: t, delta: 1 };
}

export const needsParent = (kind: string) => kind === 'reveal' || kind === 'void';

/** Adds a row's tally to a running count (keyed by key and total). */
export class TallyCount {
  readonly counts = new Map<string, StoredTally>();
  add(t: Tally | undefined, n = 1): void {
    if (!t) return;
    const k = tallyId(t);
    // Counted in place: a recount of a big ledger adds up millions of rows into a few thousand keys.
    const had = this.counts.get(k);
    if (had) had.n += n;
    else this.counts.set(k, { ...t, n });
  }
  /** Every tally with a count, zeros left out. */
  entries(): StoredTally[] {
    return [...this.counts.values()].filter((t) => t.n !== 0);
  }
}

export const tallyId = (t: Tally) => JSON.stringify([...TALLY_KEY.map((k) => t[k]), t.total]);

/** A roll row as the recount reads it: with whether it is voided and what its reveal published. */
export type RecountRow = TallySource & { seq: number; voided: number | boolean; reveal_input: string | null };

/** A recount row as the database returns it: the JSON columns still text. */
export const parseRecountRow = (r: Omit<RecountRow, 'dice' | 'outcome'> & { dice: string; outcome: string }): RecountRow => ({
  ...r,
  dice: (readColumn('dice', r.dice) ?? []) as number[],
  outcome: readColumn('outcome', r.outcome) ?? {},
});

/** What a recount row adds: nothing when voided; a sealed one, what its reveal published (if it has one). */
export function recountTally(r: RecountRow): Tally | undefined {
  if (r.kind === EXPIRY_KIND) return tallyOf(r);
  if (r.voided) return undefined;
  if (!isSealedOutcome(r.outcome)) return tallyOf(r);
  if (r.reveal_input === null) return undefined;
  const payload = (JSON.parse(r.reveal_input) as { payload?: SealedPayload }).payload;
  return payload ? tallyOf(revealedSource(r, payload)) : undefined;
}

const RECOUNT_COLUMNS = 'r.seq, r.guild_id, r.channel_id, r.game_id, r.user_id, r.system, r.command, r.kind, r.created_at, r.dice, r.outcome';
/** The rolls of a guild after a seq, with their void and reveal (by the parent index): the recount's and the backfill's read. */
export const RECOUNT_SQL = (oneGuild: boolean) => `SELECT ${RECOUNT_COLUMNS},
  CASE WHEN EXISTS (SELECT 1 FROM rolls v WHERE v.parent_id = r.id AND v.kind = 'void') THEN 1 ELSE 0 END AS voided,
  (SELECT rv.input FROM rolls rv WHERE rv.parent_id = r.id AND rv.kind = 'reveal' LIMIT 1) AS reveal_input
  FROM rolls r WHERE r.kind IN ('roll', 'reroll', '${EXPIRY_KIND}') ${oneGuild ? 'AND r.guild_id = ?' : ''} AND r.seq > ? ORDER BY r.seq LIMIT ?`;

/** One tally's count moved by n (a void's −1 may leave a zero, which reads as nothing). */
export const UPSERT_TALLY_SQL = `INSERT INTO dice_tallies (${TALLY_KEY.join(', ')}, total, n) VALUES (${[...TALLY_KEY, 'total', 'n'].map(() => '?').join(', ')})
  ON CONFLICT (${TALLY_KEY.join(', ')}, total) DO UPDATE SET n = dice_tallies.n + excluded.n`;

export const tallyParams = (t: Tally, n: number) => [...TALLY_KEY.map((k) => t[k]), t.total, n];

export const GUILD_TALLIES_SQL = `SELECT ${TALLY_KEY.join(', ')}, total, n FROM dice_tallies WHERE guild_id = ? AND n <> 0`;

/** What /stats filters the aggregates on: every field optional but the guild; hours inclusive. */
export type TallyFilter = ScopeFilter & {
  category?: string | undefined;
  side?: string | undefined;
  sinceHour?: string | undefined;
  untilHour?: string | undefined;
};
export const TALLY_GROUPS = ['user', 'side', 'category', 'command'] as const;
export type TallyGroup = (typeof TALLY_GROUPS)[number];
const GROUP_COLUMN: Record<TallyGroup, string> = { user: 'user_id', side: 'side', category: 'category', command: 'command' };

/** A sum of the aggregates: rolls of one shape and group with one Original total. */
export type TallySum = { shape: string; grp: string; total: number; n: number };

/** The one query /stats makes: sums of the aggregates, never rows; parameters bound, never spliced. */
export function tallySumSql(f: TallyFilter, by: TallyGroup | undefined): { sql: string; params: unknown[] } {
  const w = scopeWhere(f).eq('category', f.category).eq('side', f.side).when('hour >= ?', f.sinceHour).when('hour <= ?', f.untilHour);
  // PostgreSQL refuses a constant in GROUP BY: with no grouping, the group is a constant in the select only.
  const grp = by ? GROUP_COLUMN[by] : undefined;
  return {
    sql: `SELECT shape, ${grp ?? "''"} AS grp, total, SUM(n) AS n FROM dice_tallies WHERE ${w.sql}
      GROUP BY shape, ${grp ? `${grp}, ` : ''}total HAVING SUM(n) <> 0`,
    params: w.params,
  };
}
