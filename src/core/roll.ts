import { recordingRoller, type Roller } from '../dice/roller.js';
import { BEACON_SCHEME, BeaconRoller, isPerPlayer, PLAYER_KEY_SCHEME, type GameDraw, type RollBeacon } from '../dice/seeded.js';
import { BeaconNeeded } from './beacon-needed.js';
import { newRollId } from '../ledger/next-row.js';
import type { LedgerRow } from '../ledger/rows.js';
import { commitmentsOf, gameOptionsOf, type Game } from '../ledger/roster.js';
import { withPayload } from '../ledger/rows.js';
import type { AnySystemId, Outcome } from '../rules/types.js';
import type { Context } from './command.js';
import { record, type RecordMeta } from './record.js';
import { writeBack, type RosterWrite, type Tracked } from './roster-unit.js';
import { unitOfWork, type TxScope } from './unit-of-work.js';
import { answerIn } from './requests.js';
import { refuse } from './user-error.js';
import { userText } from '../render/embed.js';
import { command, list } from '../i18n/said.js';

/** A roster change a sealed roll makes, kept in its sealed payload until /reveal applies it. */
export type PendingEffect = { unit_id: number; change: RosterWrite; command: string };

/** A change a roll makes to a roster unit, as data: computed from the outcome, written in the roll's transaction. */
export type RosterEffect = {
  tracked: Tracked;
  change: RosterWrite;
  /** The command the unit row is recorded under (the roll's, unless said). */
  command?: string;
};

/** What a command rolls: its row's meta, the rules that roll the dice, and what the outcome does. */
export type RollSpec<O extends Outcome> = {
  meta: Omit<RecordMeta, 'sealed' | 'id' | 'system'> & { sealed?: boolean | undefined };
  rules: (roller: Roller) => O;
  /** The chances of the outcome, recorded with it. */
  odds?: (outcome: O) => Outcome['odds'];
  /** What the outcome does to roster units, as data; `rollId` is the id the roll's row will have. */
  effects?: (outcome: O, rollId: string) => RosterEffect[];
};

/** A committed roll: its row, its outcome, and the scope it was decided in (the reply reads the channel's game from it). */
export type Rolled<O extends Outcome> = { row: LedgerRow; outcome: O; scope: TxScope };

/**
 * A beacon game's roll has its round only once the router ran it again with it (BeaconBinder); the
 * first run stops here, before anything is written, and the request is bound to a round instead.
 */
function beaconOf(game: Game, ctx: Context): RollBeacon {
  const chain = gameOptionsOf(game).beacon;
  const source = ctx.services.beacon;
  if (!chain || source?.chain.hash !== chain.hash) refuse('beaconUnreadable', { game: userText(game.name), chain: chain?.hash.slice(0, 12) ?? '?' });
  if (!ctx.beacon) throw new BeaconNeeded();
  return ctx.beacon;
}

/**
 * Where a roll's dice come from. A beacon game's: its round only, as a BeaconRoller (no other roller
 * is one, so the bot's local dice cannot stand in, whatever the services hold). A request bound to a
 * round rolls in the game it was bound in or not at all: its game ended meanwhile, nothing is rolled
 * (else it would roll the bot's own dice under the channel's "bound to beacon round R").
 */
type Dice = { beacon: RollBeacon; roller: BeaconRoller } | { beacon?: undefined; roller: Roller };

function diceOf(game: Game | undefined, ctx: Context, draw: GameDraw): Dice {
  const bound = ctx.beacon;
  if (bound && (game?.dice_scheme !== BEACON_SCHEME || (bound.game !== undefined && bound.game !== game.id))) refuse('boundGameGone', { round: bound.round });
  if (game?.dice_scheme === BEACON_SCHEME) {
    const beacon = beaconOf(game, ctx);
    if (!game.server_seed) throw new Error(`game ${game.id} has no server seed`);
    return { beacon, roller: BeaconRoller.of(game.server_seed, game.id, beacon) };
  }
  return { roller: game ? ctx.services.gameRoller(game, draw) : ctx.services.roller };
}

/** What a beacon roll's row keeps of its round (its randomness follows from the signature). */
const rowBeacon = (b: RollBeacon) => ({ interaction: b.interactionId, round: b.round, signature: b.signature });

/** A tournament game's roll is taken only as a request Discord signed (kept as its evidence). */
function assertSignedIfTournament(game: Game, ctx: Context): void {
  if (gameOptionsOf(game).fair === 'tournament' && !ctx.evidence) refuse('tournamentSignedOnly', { game: userText(game.name) });
}

/** A game's dice wait until every committed player seed is revealed (commit-then-reveal). */
function assertSeedsRevealed(game: Game): void {
  const waiting = commitmentsOf(game).filter((c) => c.seed === null);
  if (waiting.length)
    refuse('seedsWaiting', {
      game: userText(game.name),
      players: list(
        waiting.map((c) => userText(c.user_name)),
        'comma',
      ),
      reveal: command('game seed'),
    });
}

/**
 * The one path of a roll, in the caller's unit of work: the rules roll their dice (each die recorded
 * as it is drawn), then the outcome and the roster changes it makes (`effects`, pure) are written
 * together. Nothing is returned, and so nothing can be shown, unless the transaction commits.
 */
async function rollIn<O extends Outcome>(at: TxScope, ctx: Context, system: AnySystemId | null, spec: RollSpec<O>): Promise<Rolled<O>> {
  const { tx, game } = at;
  if (game) assertSeedsRevealed(game);
  if (game) assertSignedIfTournament(game, ctx);
  // In a game the dice come from its seeded stream, numbered inside this transaction: by the roll's
  // place in the game, and by the roller's own count of game rolls (per-player dice); both read with the game.
  const n = at.numbers;
  const seq = game ? (n?.nextGameSeq ?? (await tx.nextGameSeq(game.id))) : undefined;
  const k = isPerPlayer(game?.dice_scheme) ? (n?.playerRollCount ?? (await tx.playerRollCount(game!.id, ctx.actor.userId))) + 1 : 0;
  // player-v2 keys the roller's dice to their salt's id: on the chain in their row, and after they are erased.
  const playerKey = game?.dice_scheme === PLAYER_KEY_SCHEME ? await tx.personKey(game.guild_id, ctx.actor.userId) : undefined;
  const { beacon, roller } = diceOf(game, ctx, { seq: seq!, userId: ctx.actor.userId, k, playerKey });
  const dice = recordingRoller(roller);
  const rolled = spec.rules(dice);
  // The chances are recorded with the roll: what the player faced, kept with what happened.
  const outcome = spec.odds ? { ...rolled, odds: spec.odds(rolled) } : rolled;
  // The id is drawn first so an effect can name its own roll (a pending rout).
  const id = newRollId();
  // A roll asked of this player (/ask) is the request's answer: taken here, once, and its row names the request.
  const answered = await answerIn(at, ctx, spec.meta.kind, id);
  const changes = spec.effects?.(outcome, id) ?? [];
  // A beacon roll's row names its round and carries the round's signature: anyone can check both.
  const meta = {
    ...spec.meta,
    id,
    ...(answered ? { parentId: answered } : {}),
    system: system ?? undefined,
    ...(beacon ? { input: { ...(spec.meta.input as object), beacon: rowBeacon(beacon) } } : {}),
  };
  if (beacon && !(await tx.history.settleBinding(beacon.interactionId, 'rolled', id, tx.timestamp()))) refuse('alreadySettled');
  const inGame = { game, seq };
  if (spec.meta.sealed) {
    // Nothing derived from a sealed result shows before its reveal: its roster changes wait in the sealed payload.
    const pending: PendingEffect[] = changes.map((e) => ({ unit_id: e.tracked.unit.id, change: e.change, command: e.command ?? meta.command }));
    const row = await record(tx, ctx, { ...meta, sealed: { effects: pending } }, outcome, dice.faces, inGame);
    return { row: withPayload(row, { dice: dice.faces, outcome, result: outcome.result, effects: pending }), outcome, scope: at };
  }
  const row = await record(tx, ctx, { ...meta, sealed: undefined }, outcome, dice.faces, inGame);
  for (const e of changes) await writeBack(tx, ctx, e.tracked, e.change, row.id, e.command ?? meta.command);
  return { row, outcome, scope: at };
}

/** What a plan returns when the rules say nothing is to be rolled (a pending rout that lapses instead). */
export type Instead<T> = { instead: T };

/**
 * The one entry point of a roll: its own unit of work, where `plan` reads what it decides from in
 * the transaction, then the dice roll and everything is written together. `system` null: the roll
 * is of whatever game runs in the channel (/roll dice). A plan may return `{ instead }` to roll nothing.
 * A plan writes no roll of its own before the roll's: the roll's numbers in the game are read with the game.
 */
export function rollAndRecord<O extends Outcome, T = never>(
  ctx: Context,
  system: AnySystemId | null,
  plan: (at: TxScope) => Promise<RollSpec<O> | Instead<T>> | RollSpec<O> | Instead<T>,
): Promise<[T] extends [never] ? Rolled<O> : Rolled<O> | Instead<T>> {
  const work = async (at: TxScope) => {
    const spec = await plan(at);
    if ('instead' in spec) return spec as never;
    return rollIn(at, ctx, system ?? ((at.game?.system ?? null) as AnySystemId | null), spec) as never;
  };
  return unitOfWork(ctx, system, work, { roll: true });
}
