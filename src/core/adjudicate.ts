import { recordingRoller, type Roller } from '../dice/roller.js';
import { AlreadyRecordedError, type LedgerRow } from '../ledger/ledger.js';
import { refuse } from './user-error.js';
import type { Game } from '../ledger/roster.js';
import type { Outcome, SystemId } from '../rules/types.js';
import type { APIEmbed } from 'discord.js';
import { noticeEmbed } from '../render/embed.js';
import { systemName } from '../rules/systems.js';
import type { Button, Context, Reply, RecordSummary } from './command.js';

export type RecordMeta = {
  command: string;
  /** The rule system; a roll needs it before its dice, to know whether they are a game's. */
  system?: SystemId;
  /**
   * roll: dice were rolled; reroll: a second roll the rules allow; check: a ruling with no dice;
   * decision: a player's choice on a roll; game / unit: a change to a game or its roster;
   * void / annotation / reveal: a GM's mark on a roll; config: a server setting.
   */
  kind: 'roll' | 'reroll' | 'check' | 'decision' | 'game' | 'unit' | 'void' | 'annotation' | 'reveal' | 'config';
  unit?: string | undefined;
  /** The validated options, exactly as they will be re-read from the ledger. */
  input: unknown;
  parentId?: string;
  /** A row that may exist once (a button's effect): the ledger refuses a second one. */
  onceKey?: string;
  /** What the user is told when the once-key was already used (the button raced, or was pressed twice). */
  onceTaken?: string;
};

/**
 * The channel's running game, if this outcome belongs to it: rolls of the game's system are
 * tagged with its id, turn and phase (a roll of another system in the channel is not the game's).
 */
export function gameFor(ctx: Context, system: string | null) {
  const game = ctx.services.ledger.roster.activeGame(ctx.actor.guildId, ctx.actor.channelId);
  return game && (system === null || game.system === system) ? game : undefined;
}

/**
 * Said in the reply when the channel's game is of another system: the result is recorded, but not
 * as part of that game.
 */
export function gameNote(ctx: Context, system: SystemId): string | undefined {
  const game = ctx.services.ledger.roster.activeGame(ctx.actor.guildId, ctx.actor.channelId);
  if (!game || game.system === system) return undefined;
  return `Not part of ${game.name}: that game is ${systemName(game.system)}, so this ${systemName(system)} result is recorded outside it.`;
}

const noted = (ctx: Context, system: string, embed: APIEmbed): APIEmbed => {
  const note = gameNote(ctx, system as SystemId);
  return note ? { ...embed, description: [embed.description, `*${note}*`].filter(Boolean).join('\n') } : embed;
};

/** Commits an outcome to the ledger; throws (and so shows nothing) if the commit fails. */
export function record<O extends Outcome>(
  ctx: Context,
  meta: RecordMeta,
  outcome: O,
  dice: number[] = [],
  /** A roll passes the game it already looked up, with the roll's number in it. */
  inGame?: { game: Game | undefined; seq: number | undefined },
): LedgerRow {
  const game = inGame ? inGame.game : gameFor(ctx, outcome.system);
  const gameSeq = inGame?.seq;
  const entry = {
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
    input: meta.input,
    dice,
    outcome,
    result: outcome.result,
    parentId: meta.parentId ?? null,
    onceKey: meta.onceKey ?? null,
  };
  try {
    return ctx.services.ledger.append(entry);
  } catch (err) {
    // The one place a used once-key becomes the user's sentence; the transaction rolls back.
    if (err instanceof AlreadyRecordedError && meta.onceTaken) refuse(meta.onceTaken);
    throw err;
  }
}

/**
 * The one path of a roll: the rules roll their dice (each die recorded as it is drawn), then the
 * outcome is committed to the ledger. Nothing is returned, and so nothing can be shown, unless
 * the commit succeeded.
 */
export function rollAndRecord<O extends Outcome>(
  ctx: Context,
  meta: RecordMeta,
  rules: (roller: Roller) => O,
  extra: {
    /** The chances of the outcome, recorded with it. */
    odds?: (outcome: O) => Outcome['odds'];
    /** More changes that belong to the roll (a roster write-back), in the same transaction. */
    after?: (found: { row: LedgerRow; outcome: O }) => void;
  } = {},
): { row: LedgerRow; outcome: O } {
  const { odds, after } = extra;
  const { ledger } = ctx.services;
  if (!meta.system) throw new Error('a roll needs its system');
  return ledger.transaction(() => {
    // In a game the dice come from its seeded stream, numbered inside this transaction.
    const game = gameFor(ctx, meta.system!);
    const seq = game ? ledger.nextGameSeq(game.id) : undefined;
    const dice = recordingRoller(game ? ctx.services.gameRoller(game, seq!) : ctx.services.roller);
    const rolled = rules(dice);
    // The chances are recorded with the roll: what the player faced, kept with what happened.
    const outcome = odds ? { ...rolled, odds: odds(rolled) } : rolled;
    const found = { row: record(ctx, meta, outcome, dice.faces, { game, seq }), outcome };
    after?.(found);
    return found;
  });
}

export function summarise(row: LedgerRow, outcome: Outcome): RecordSummary {
  return {
    command: row.command,
    system: row.system,
    roll_id: row.id,
    ...(row.parent_id ? { parent_roll_id: row.parent_id } : {}),
    steps: outcome.steps,
    result: outcome.result,
  };
}

/** A public result message for a recorded outcome, with its JSON summary. */
export function resultMessage(found: { row: LedgerRow; outcome: Outcome }, embed: APIEmbed, buttons: Button[] = []): Reply {
  return { type: 'message', ephemeral: false, embed, buttons, record: summarise(found.row, found.outcome) };
}

/**
 * The reply to a roll that may be sealed. A sealed roll is in the ledger like any other, but the
 * channel sees only that it happened: the result goes to the roller if a GM, and to the GMs'
 * channel; /reveal publishes it later.
 */
export function rollMessage(
  ctx: Context,
  sealed: boolean | undefined,
  found: { row: LedgerRow; outcome: Outcome },
  shown: APIEmbed,
  buttons: Button[] = [],
): Reply {
  const embed = found.row.system ? noted(ctx, found.row.system, shown) : shown;
  if (!sealed) return resultMessage(found, embed, buttons);
  const { row } = found;
  const gmChannel = ctx.services.ledger.settings.get(ctx.actor.guildId).gm_channel_id;
  const where = [ctx.actor.isGm ? 'shown to you' : undefined, gmChannel ? `sent to <#${gmChannel}>` : undefined].filter(Boolean).join(' and ');
  const body = `Sealed roll \`${row.id}\` by <@${row.user_id}>: the result is recorded (hash \`${row.hash.slice(0, 8)}\`) and stays hidden until a GM or the roller runs /reveal id:${row.id}.${where ? ` The result was ${where}.` : ' No GM channel is set (/config gm-channel): a GM can read it with /roll show.'}`;
  return {
    type: 'message',
    ephemeral: false,
    embed: noticeEmbed(`Sealed roll · /${row.command}${row.unit ? ` · ${row.unit}` : ''}`, body),
    buttons: [],
    record: { command: row.command, system: row.system, roll_id: row.id, sealed: true, steps: [], result: null },
    ...(ctx.actor.isGm ? { private: { embed, buttons } } : {}),
    ...(gmChannel ? { notify: { channelId: gmChannel, embed } } : {}),
  };
}

/** A message that records nothing of its own (status, rosters, notices). */
export const message = (embed: APIEmbed, ephemeral = false, buttons: Button[] = []): Reply => ({ type: 'message', ephemeral, embed, buttons });

export const errorReply = (message: string): Reply => ({ type: 'error', message });
