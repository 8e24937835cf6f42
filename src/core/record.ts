import { AlreadyRecordedError } from '../ledger/errors.js';
import type { LedgerRow } from '../ledger/rows.js';
import type { LedgerTx } from '../ledger/transaction.js';
import type { Game } from '../ledger/roster.js';
import type { AnySystemId, Outcome } from '../rules/types.js';
import type { Context } from './command.js';
import { refuse } from './user-error.js';
import { ofSystem } from './games.js';
import { withEvidence } from './evidence.js';
import type { Said } from '../i18n/said.js';
import type { Named } from '../ledger/people.js';

/** Writing one ledger row in a transaction: what every roll, ruling and change goes through. */

export type RecordMeta = {
  /** The row's id, when drawn before the row (see rollAndRecord). */
  id?: string;
  command: string;
  /** The rule system; a roll needs it before its dice, to know whether they are a game's. */
  system?: AnySystemId;
  /**
   * roll: dice were rolled; reroll: a second roll the rules allow; check: a ruling with no dice;
   * decision: a player's choice on a roll; game / unit: a change to a game or its roster;
   * void / annotation / reveal: a GM's mark on a roll; config: a server setting; key: the receipt key
   * put on the guild's chain (verifiers trust a receipt's key only from its own guild's chain); pack: a
   * rule pack installed or removed (its canonical JSON and hash are on the chain); request: a roll
   * asked of a player (/ask) or taken back.
   */
  kind: 'roll' | 'reroll' | 'check' | 'decision' | 'game' | 'unit' | 'void' | 'annotation' | 'reveal' | 'config' | 'key' | 'pack' | 'request';
  unit?: string | undefined;
  /** The validated options, exactly as they will be re-read from the ledger. */
  input: unknown;
  parentId?: string;
  /** A row that may exist once (a button's effect): the ledger refuses a second one. */
  onceKey?: string;
  /** What the user is told when the once-key was already used (the button raced, or was pressed twice). */
  onceTaken?: Said;
  /** Sealed: the row chains a commitment; the payload (and these roster changes) wait for /reveal. */
  sealed?: { effects: unknown[] };
  /** People the row names beyond its maker (a reveal: the sealed roll's), whose values it commits to like theirs. */
  named?: Named[];
  /** Input values the chain holds in a form committed already (a reveal's payload, as its sealed roll committed to it). */
  chainedInput?: Record<string, unknown>;
};

/**
 * The options a row was asked with, as a command re-reads them (a re-roll, "roll again", a
 * receipt's command line): its input without what the bot added beside them (a beacon roll's round,
 * the digest of Discord's signed request).
 */
export function recordedOptions(row: { input: unknown }): Record<string, unknown> {
  const { beacon: _added, evidence: _signed, ...options } = (row.input ?? {}) as Record<string, unknown>;
  return options;
}

/** The rows a game's status card lists among its last rolls. */
const SHOWN_ON_CARD: ReadonlySet<RecordMeta['kind']> = new Set(['roll', 'reroll', 'check']);

/** Commits an outcome to the ledger in the caller's transaction; throws (and so shows nothing) if it fails. */
export async function record<O extends Outcome>(
  tx: LedgerTx,
  ctx: Context,
  meta: RecordMeta,
  outcome: O,
  dice: number[] = [],
  /** The game the caller already read in this transaction (a roll: with the roll's number in it). */
  inGame?: { game: Game | undefined; seq?: number | undefined },
): Promise<LedgerRow> {
  const game = inGame ? inGame.game : ofSystem(await tx.roster.activeGame(ctx.actor.guildId, ctx.actor.channelId), outcome.system);
  const gameSeq = inGame?.seq;
  // In HTTP mode the row commits to the request Discord signed for it, kept with the row.
  const signed = withEvidence(tx, ctx.actor.guildId, ctx.evidence, meta.input);
  // A plain property, not a spread: a spread makes this hot literal (and nextRow's reads of it) slow.
  const entry = {
    id: meta.id,
    gameId: game?.id ?? null,
    turn: game?.turn ?? null,
    phase: game?.phase ?? null,
    gameSeq: game ? (gameSeq ?? null) : null,
    guildId: ctx.actor.guildId,
    channelId: ctx.actor.channelId,
    userId: ctx.actor.userId,
    userName: ctx.actor.userName,
    command: meta.command,
    system: outcome.system,
    kind: meta.kind,
    unit: meta.unit ?? null,
    input: signed.input,
    dice,
    outcome,
    result: outcome.result,
    parentId: meta.parentId ?? null,
    onceKey: meta.onceKey ?? null,
    sealed: meta.sealed ?? null,
    named: meta.named ?? [],
    ...(meta.chainedInput ? { chainedInput: meta.chainedInput } : {}),
  };
  try {
    // A result in a game marks the game's status card to redraw (a game without a card matches nothing).
    return await tx.append(entry, { evidence: signed.kept, touchCard: game !== undefined && SHOWN_ON_CARD.has(meta.kind) });
  } catch (err) {
    // The one place a used once-key becomes the user's sentence; the transaction rolls back.
    if (err instanceof AlreadyRecordedError && meta.onceTaken) refuse(meta.onceTaken);
    throw err;
  }
}
