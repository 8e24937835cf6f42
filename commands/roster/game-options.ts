import { assertOwnerOrGm, EVERYONE } from '../../src/core/access.js';
import { defineSubcommand, type Context } from '../../src/core/command.js';
import { runningGame } from '../../src/core/games.js';
import { choice, integer, user } from '../../src/core/options.js';
import { message } from '../../src/core/replies.js';
import { unitOfWork } from '../../src/core/unit-of-work.js';
import { refuse } from '../../src/core/user-error.js';
import { gameOptionsOf, type GameOptionKey, type GameOptions } from '../../src/ledger/roster.js';
import { userText } from '../../src/render/embed.js';
import { gameEmbed } from '../../src/render/roster.js';
import { BOOBY_TRAP_LEVELS, SIDE_NAMES, SIDES, type Side } from '../../src/rules/asl/dr.js';
import { notManager, recordGame } from './seeds.js';
import { command, list } from '../../src/i18n/said.js';
import { say } from '../../src/i18n/reader.js';
import type { MessageKey } from '../../src/i18n/messages/en.js';

/** The two sides as the reader's language names them. */
const SIDE_WORDS = () => ({ axis: say('dr.side', { side: 'axis' }), allied: say('dr.side', { side: 'allied' }) });

/** The options as one line each, for /game status and the replies here. */
export function optionLines(o: GameOptions): string[] {
  const lines: string[] = [];
  const level = (v: number | string) => (v === 0 || v === 'none' ? say('game.none') : String(v));
  if (o.san) lines.push(say('game.san', { ...SIDE_WORDS(), axisSan: level(o.san.axis), alliedSan: level(o.san.allied) }));
  if (o.booby_traps) {
    lines.push(say('game.boobyTraps', { ...SIDE_WORDS(), axisLevel: level(o.booby_traps.axis), alliedLevel: level(o.booby_traps.allied) }));
  }
  const sides = Object.entries(o.sides ?? {}).sort(([a], [b]) => a.localeCompare(b));
  for (const s of SIDES) {
    const names = sides.filter(([, v]) => v.side === s).map(([id]) => `<@${id}>`);
    if (names.length) lines.push(say('game.sidePlayers', { side: say('dr.side', { side: s }), players: list(names, 'comma') }));
  }
  return lines;
}

/** The two ASL settings: what their ledger row is called (in English, as the record is), and the reply's title. */
const ASL_SETTINGS: Record<GameOptionKey, { result: string; label: string; what: string; title: MessageKey }> = {
  san: { result: 'san_set', label: 'SAN set', what: 'SAN', title: 'game.sanSet' },
  booby_traps: { result: 'booby_traps_set', label: 'Booby traps set', what: 'Booby traps', title: 'game.boobyTrapsSet' },
};

/** An ASL setting changed by the game's starter or a GM, patched in one unit of work with its ledger row. */
async function setAslOption(ctx: Context, key: GameOptionKey, value: { axis: number; allied: number } | { axis: string; allied: string }) {
  const { result, label, what, title } = ASL_SETTINGS[key];
  const g = await unitOfWork(ctx, null, async (at) => {
    const g = runningGame(at);
    if (g.system !== 'asl') refuse('notAsl', { game: userText(g.name) });
    assertOwnerOrGm(ctx, g.started_by, notManager(g));
    await at.tx.roster.setGameOption(g.id, key, value);
    const after = (await at.tx.roster.game(g.guild_id, g.id))!;
    await recordGame(at.tx, ctx, after, { [key]: value }, result, label, `${what}: Axis ${value.axis}, Allied ${value.allied}.`);
    return after;
  });
  return message(gameEmbed(say(title), g, { note: optionLines(gameOptionsOf(g)).join('\n') }));
}

export const san = defineSubcommand({
  description: "ASL: the scenario's Sniper Activation Numbers (0: none); a DR whose Original equals one says so",
  access: EVERYONE,
  options: {
    axis: integer({ description: "The Axis side's SAN, 0 (none) to 7", min: 0, max: 7, required: true }),
    allied: integer({ description: "The Allied side's SAN, 0 (none) to 7", min: 0, max: 7, required: true }),
  },
  run: (ctx, o) => setAslOption(ctx, 'san', { axis: o.axis, allied: o.allied }),
});

export const boobyTraps = defineSubcommand({
  description: "ASL: each side's booby-trap level (B28.9); a Task Check DR that springs one says so",
  access: EVERYONE,
  options: {
    axis: choice({ description: 'Booby traps set by the Axis side: none, A, B or C', choices: BOOBY_TRAP_LEVELS, required: true }),
    allied: choice({ description: 'Booby traps set by the Allied side: none, A, B or C', choices: BOOBY_TRAP_LEVELS, required: true }),
  },
  run: (ctx, o) => setAslOption(ctx, 'booby_traps', { axis: o.axis, allied: o.allied }),
});

export const join = defineSubcommand({
  description: 'Join a side of the game (once); a GM may move any player with user:',
  access: EVERYONE,
  options: {
    side: choice({ description: 'The side you play: axis or allied', choices: SIDES, required: true }),
    user: user({ description: 'GM: the player to put on that side (default: you)' }),
  },
  async run(ctx, o) {
    const who = o.user ?? ctx.actor.userId;
    const g = await unitOfWork(ctx, null, async (at) => {
      const g = runningGame(at);
      const had = gameOptionsOf(g).sides?.[who];
      if (who !== ctx.actor.userId && !ctx.actor.isGm) refuse('gmPutsOnSide');
      if (had && !ctx.actor.isGm) refuse('alreadyJoined', { game: userText(g.name), side: SIDE_NAMES[had.side as Side], join: command('game join') });
      const name = who === ctx.actor.userId ? ctx.actor.userName : `<@${who}>`;
      await at.tx.roster.setPlayerSide(g.id, who, { side: o.side, name });
      const after = (await at.tx.roster.game(g.guild_id, g.id))!;
      const why = `${userText(name)} ${had ? `moved from ${SIDE_NAMES[had.side as Side]} to` : 'joined'} ${SIDE_NAMES[o.side]}.`;
      await recordGame(at.tx, ctx, after, { user: who, side: o.side }, 'side_joined', 'Side joined', why);
      return after;
    });
    return message(gameEmbed(say('game.sides'), g, { note: optionLines(gameOptionsOf(g)).join('\n') }));
  },
});
