import { recordingRoller, type Roller } from '../dice/roller.js';
import { newRollId, type LedgerRow } from '../ledger/ledger.js';
import { withPayload } from '../ledger/rows.js';
import { refuse } from './user-error.js';
import { gameInTx, record, type RecordMeta } from './record.js';
export { record, type RecordMeta } from './record.js';
export { gameFor } from './games.js';
import { writeBack, type RosterWrite, type Tracked } from './roster-unit.js';
import type { Outcome, SystemId } from '../rules/types.js';
import type { APIEmbed } from 'discord.js';
import { noticeEmbed, userText } from '../render/embed.js';
import { systemName } from '../rules/systems.js';
import type { Button, Context, Reply, RecordSummary } from './command.js';

/**
 * Said in the reply when the channel's game is of another system: the result is recorded, but not
 * as part of that game.
 */
export async function gameNote(ctx: Context, system: SystemId): Promise<string | undefined> {
  const game = await ctx.services.ledger.roster.activeGame(ctx.actor.guildId, ctx.actor.channelId);
  if (!game || game.system === system) return undefined;
  return `Not part of ${userText(game.name)}: that game is ${systemName(game.system)}, so this ${systemName(system)} result is recorded outside it.`;
}

const noted = async (ctx: Context, system: string, embed: APIEmbed): Promise<APIEmbed> => {
  const note = await gameNote(ctx, system as SystemId);
  return note ? { ...embed, description: [embed.description, `*${note}*`].filter(Boolean).join('\n') } : embed;
};

/** One row on its own, in its own transaction (a GM's mark, a reveal). */
export const recordAlone = <O extends Outcome>(ctx: Context, meta: RecordMeta, outcome: O): Promise<LedgerRow> =>
  ctx.services.ledger.transaction((tx) => record(tx, ctx, meta, outcome), ctx.actor.guildId);

/** A roster change a sealed roll makes, kept in its sealed payload until /reveal applies it. */
export type PendingEffect = { unit_id: number; change: RosterWrite; command: string };

/** A change a roll makes to a roster unit, as data: computed from the outcome, written in the roll's transaction. */
export type RosterEffect = {
  tracked: Tracked;
  change: RosterWrite;
  /** The command the unit row is recorded under (the roll's, unless said). */
  command?: string;
};

/**
 * The one path of a roll: the rules roll their dice (each die recorded as it is drawn), then the
 * outcome and the roster changes it makes (`effects`, pure) are committed together. Nothing is
 * returned, and so nothing can be shown, unless the commit succeeded.
 */
export function rollAndRecord<O extends Outcome>(
  ctx: Context,
  meta: Omit<RecordMeta, 'sealed'> & { sealed?: boolean | undefined },
  rules: (roller: Roller) => O,
  extra: {
    /** The chances of the outcome, recorded with it. */
    odds?: (outcome: O) => Outcome['odds'];
    /** What the outcome does to roster units, as data; `rollId` is the id the roll's row will have. */
    effects?: (outcome: O, rollId: string) => RosterEffect[];
  } = {},
): Promise<{ row: LedgerRow; outcome: O }> {
  const { odds, effects } = extra;
  if (!meta.system) throw new Error('a roll needs its system');
  return ctx.services.ledger.transaction(async (tx) => {
    // In a game the dice come from its seeded stream, numbered inside this transaction.
    const game = await gameInTx(tx, ctx, meta.system!);
    if (game) {
      // The dice wait until every committed player seed is revealed (commit-then-reveal, issue 13).
      const waiting = (JSON.parse(game.seed_commitments ?? '[]') as { user_name: string; seed: string | null }[]).filter((c) => c.seed === null);
      if (waiting.length)
        refuse(`${game.name}'s dice wait for committed seeds to be revealed: ${waiting.map((c) => c.user_name).join(', ')} (/game seed reveal:<seed>).`);
    }
    const seq = game ? await tx.nextGameSeq(game.id) : undefined;
    const dice = recordingRoller(game ? ctx.services.gameRoller(game, seq!) : ctx.services.roller);
    const rolled = rules(dice);
    // The chances are recorded with the roll: what the player faced, kept with what happened.
    const outcome = odds ? { ...rolled, odds: odds(rolled) } : rolled;
    // The id is drawn first so an effect can name its own roll (a pending rout, issue 25).
    const id = newRollId();
    const changes = effects?.(outcome, id) ?? [];
    if (meta.sealed) {
      // Nothing derived from a sealed result shows before its reveal: its roster changes wait in the sealed payload.
      const pending: PendingEffect[] = changes.map((e) => ({ unit_id: e.tracked.unit.id, change: e.change, command: e.command ?? meta.command }));
      const row = await record(tx, ctx, { ...meta, id, sealed: { effects: pending } }, outcome, dice.faces, { game, seq });
      return { row: withPayload(row, { dice: dice.faces, outcome, result: outcome.result, effects: pending }), outcome };
    }
    const row = await record(tx, ctx, { ...meta, id, sealed: undefined }, outcome, dice.faces, { game, seq });
    for (const e of changes) await writeBack(tx, ctx, e.tracked, e.change, row.id, e.command ?? meta.command);
    return { row, outcome };
  }, ctx.actor.guildId);
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
export async function rollMessage(
  ctx: Context,
  sealed: boolean | undefined,
  found: { row: LedgerRow; outcome: Outcome },
  shown: APIEmbed,
  buttons: Button[] = [],
): Promise<Reply> {
  const embed = found.row.system ? await noted(ctx, found.row.system, shown) : shown;
  if (!sealed) return resultMessage(found, embed, buttons);
  const { row } = found;
  const gmChannel = (await ctx.services.ledger.settings.get(ctx.actor.guildId)).gm_channel_id;
  const shownToYou = ctx.actor.isGm ? ' The result was shown to you.' : '';
  const body = `Sealed roll \`${row.id}\` by <@${row.user_id}>: the result is recorded (hash \`${row.hash.slice(0, 8)}\`) and stays hidden until a GM or the roller runs /reveal id:${row.id}.`;
  // Whether the GMs' channel got it is known only once the post is tried: the transport posts
  // first and ends the reply with `sent` or `failed`.
  const notify = gmChannel
    ? {
        channelId: gmChannel,
        embed,
        sent: ` The result was ${ctx.actor.isGm ? 'shown to you and ' : ''}sent to <#${gmChannel}>.`,
        failed: `${shownToYou} ⚠️ It could not be posted to <#${gmChannel}>: the bot needs View Channel, Send Messages and Embed Links there. A GM can read it with /roll show id:${row.id}.`,
      }
    : undefined;
  const unposted = gmChannel ? '' : shownToYou || ' No GM channel is set (/config gm-channel): a GM can read it with /roll show.';
  return {
    type: 'message',
    ephemeral: false,
    embed: noticeEmbed(`Sealed roll · /${row.command}${row.unit ? ` · ${userText(row.unit)}` : ''}`, body + unposted),
    buttons: [],
    record: { command: row.command, system: row.system, roll_id: row.id, sealed: true, steps: [], result: null },
    // The rules' choices (re-roll, refuse hardening) are offered with the reveal, when the result is public.
    ...(ctx.actor.isGm ? { private: { embed, buttons: [] } } : {}),
    ...(notify ? { notify } : {}),
  };
}

/**
 * The reply once its post to another channel was tried: the post's outcome is said in the reply's
 * last sentence, and nothing is left to post.
 */
export function afterNotify<R extends Reply>(reply: R, posted: boolean): R {
  const r: Reply = reply;
  if (r.type !== 'message' || !r.notify) return reply;
  const { notify, ...rest } = r;
  const description = `${rest.embed.description ?? ''}${posted ? notify.sent : notify.failed}`;
  return { ...rest, embed: { ...rest.embed, description } } as R;
}

/** A message that records nothing of its own (status, rosters, notices). */
export const message = (embed: APIEmbed, ephemeral = false, buttons: Button[] = []): Reply => ({ type: 'message', ephemeral, embed, buttons });

export const errorReply = (message: string): Reply => ({ type: 'error', message });
