import { errorReply, message, record } from '../src/core/adjudicate.js';
import { defineSubcommand, type CommandGroup, type Context, type Reply } from '../src/core/command.js';
import { choice, integer, text } from '../src/core/options.js';
import { mayManage, rosterFinding } from '../src/core/roster-unit.js';
import { newRollId } from '../src/ledger/ledger.js';
import { GameRunningError, type Game } from '../src/ledger/roster.js';
import { gameEmbed, SYSTEM_NAMES } from '../src/render/roster.js';

export const SYSTEMS = ['asl', 'hearts-of-tin', 'lightning-war', 'wacht-am-rhein'] as const;

/** The running game, or the error telling the user there is none. */
export function runningGame(ctx: Context): Game | Reply {
  const game = ctx.services.ledger.roster.activeGame(ctx.actor.guildId, ctx.actor.channelId);
  return game ?? errorReply('No game is running in this channel: start one with /game start system:<system> name:<name>.');
}

const NOT_MANAGER = (g: Game) => `Only the player who started ${g.name}, or a GM, can change it.`;

/** Records a change to the game as a ledger row in the same transaction as the change. */
function recordGame(ctx: Context, g: Game, input: Record<string, unknown>, result: string, label: string, why: string) {
  return record(ctx, { command: 'game', kind: 'game', input: { game: g.id, ...input } }, rosterFinding(g.system, result, label, why));
}

export default {
  name: 'game',
  description: "Run a game in this channel: its system, turn and phase tag every roll made in it",
  example: '/game start system:wacht-am-rhein name:"The Bulge"',
  subcommands: {
    start: defineSubcommand({
      description: 'Start a game in this channel (one at a time)',
      options: {
        system: choice({ description: 'The rule system the game uses', choices: SYSTEMS, required: true }),
        name: text({ description: 'A name for the game', maxLength: 80, required: true }),
      },
      run(ctx, o) {
        const { ledger } = ctx.services;
        try {
          const game = ledger.transaction(() => {
            const g = ledger.roster.startGame({
              id: newRollId(),
              guild_id: ctx.actor.guildId,
              channel_id: ctx.actor.channelId,
              system: o.system,
              name: o.name,
              started_by: ctx.actor.userId,
              started_at: ledger.timestamp(),
            });
            recordGame(ctx, g, { system: o.system, name: o.name }, 'game_started', 'Game started', `${ctx.actor.userName} started ${o.name} (${SYSTEM_NAMES[o.system]}).`);
            return g;
          });
          return message(gameEmbed('Game started', game, { note: `Rolls of ${SYSTEM_NAMES[o.system]} in this channel now belong to this game. Set the turn with /game turn.` }));
        } catch (err) {
          if (err instanceof GameRunningError) {
            return errorReply(`A game is already running in this channel: ${err.game.name} (${SYSTEM_NAMES[err.game.system]}). End it with /game end first.`);
          }
          throw err;
        }
      },
    }),
    turn: defineSubcommand({
      description: 'Set the current turn (and phase)',
      options: {
        number: integer({ description: 'The turn number', min: 0, max: 10_000, required: true }),
        phase: text({ description: 'The phase, e.g. "Rally Phase"', maxLength: 60 }),
      },
      run(ctx, o) {
        const g = runningGame(ctx);
        if ('type' in g) return g;
        if (!mayManage(ctx, g.started_by)) return errorReply(NOT_MANAGER(g));
        const { ledger } = ctx.services;
        const updated = ledger.transaction(() => {
          ledger.roster.setTurn(g.id, o.number, o.phase ?? null);
          const after = ledger.roster.game(g.guild_id, g.id)!;
          recordGame(ctx, after, { turn: o.number, phase: o.phase ?? null }, 'turn_set', 'Turn set', `Turn ${o.number}${o.phase ? `, ${o.phase}` : ''}.`);
          return after;
        });
        return message(gameEmbed('Turn', updated));
      },
    }),
    status: defineSubcommand({
      description: "The game's system, turn, roster size and rolls so far",
      options: {},
      run(ctx) {
        const g = runningGame(ctx);
        if ('type' in g) return g;
        const { ledger } = ctx.services;
        return message(gameEmbed('Game', g, { units: ledger.roster.countUnits(g.id), rolls: ledger.gameRollCount(g.guild_id, g.id) }));
      },
    }),
    end: defineSubcommand({
      description: 'End the game (its roster stays readable in the history)',
      options: {},
      run(ctx) {
        const g = runningGame(ctx);
        if ('type' in g) return g;
        if (!mayManage(ctx, g.started_by)) return errorReply(NOT_MANAGER(g));
        const { ledger } = ctx.services;
        const ended = ledger.transaction(() => {
          recordGame(ctx, g, { ended: true }, 'game_ended', 'Game ended', `${ctx.actor.userName} ended ${g.name}.`);
          ledger.roster.endGame(g.id, ledger.timestamp());
          return ledger.roster.game(g.guild_id, g.id)!;
        });
        return message(gameEmbed('Game ended', ended, { units: ledger.roster.countUnits(g.id), rolls: ledger.gameRollCount(g.guild_id, g.id) }));
      },
    }),
  },
} satisfies CommandGroup;
