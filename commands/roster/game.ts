import { userText } from '../../src/render/embed.js';
import { assertOwnerOrGm, EVERYONE } from '../../src/core/access.js';
import { message } from '../../src/core/replies.js';
import { record } from '../../src/core/record.js';
import { refuse } from '../../src/core/user-error.js';
import { defineSubcommand, type CommandGroup, type Context } from '../../src/core/command.js';
import { choice, integer, text } from '../../src/core/options.js';
import { changeOutcome } from '../../src/core/roster-unit.js';
import { gameEnd, turnEnd } from './system-hooks.js';
import { readScope, runningGame } from '../../src/core/games.js';
import { unitOfWork } from '../../src/core/unit-of-work.js';
import { commitment, newServerSeed } from '../../src/dice/seeded.js';
import { newRollId } from '../../src/ledger/next-row.js';
import type { LedgerTx } from '../../src/ledger/transaction.js';
import { commitmentsOf, GameRunningError, type Game } from '../../src/ledger/roster.js';
import { gameEmbed } from '../../src/render/roster.js';
import { SYSTEM_NAMES, SYSTEMS, systemName } from '../../src/rules/systems.js';
import { PHASE_KEYS, phaseKey } from '../../src/rules/wacht-am-rhein/fatigue.js';

/** Player seed commitments one game takes: one per player of any real table, and a bound on each roll's work. */
export const MAX_SEEDS_PER_GAME = 20;

const NOT_MANAGER = (g: Game) => `Only the player who started ${g.name}, or a GM, can change it.`;

/** Records a change to the game as a ledger row in the same transaction as the change. */
function recordGame(tx: LedgerTx, ctx: Context, g: Game, input: Record<string, unknown>, result: string, label: string, why: string) {
  return record(tx, ctx, { command: 'game', kind: 'game', input: { game: g.id, ...input } }, changeOutcome(g.system, result, label, why));
}

/** A player's seed commitment, decided from the game as read in the command's transaction; returns the reply's note. */
async function commitSeed(tx: LedgerTx, ctx: Context, g: Game, commit: string): Promise<string> {
  const seeds = commitmentsOf(g);
  const hash = commit.trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(hash)) refuse(`\`commit\` must be a SHA-256 as 64 hex digits (you gave ${JSON.stringify(commit)}).`);
  if (seeds.some((c) => c.user_id === ctx.actor.userId)) refuse(`You already committed to a seed in ${g.name}: reveal it with /game seed reveal:<your seed>.`);
  // Once a seed is out, a later commitment could be chosen knowing it: the last player would steer the dice.
  if (seeds.some((c) => c.seed !== null)) refuse(`A seed of ${g.name} is already revealed: commitments are closed.`);
  if (seeds.length >= MAX_SEEDS_PER_GAME) refuse(`${g.name} already has ${MAX_SEEDS_PER_GAME} seed commitments, the most a game takes.`);
  const next = [...seeds, { user_id: ctx.actor.userId, user_name: ctx.actor.userName, commitment: hash, seed: null }];
  await tx.roster.setSeedCommitments(g.id, next);
  await recordGame(tx, ctx, g, { seed_commitment: hash }, 'seed_committed', 'Seed committed', `${ctx.actor.userName} committed to a seed.`);
  return `Commitment ${next.length} taken. When everyone who wants one has committed, reveal your seed with /game seed reveal:<seed>; the first roll waits for every committed seed.`;
}

/** A player's seed revealed against their commitment; returns the reply's note. */
async function revealSeed(tx: LedgerTx, ctx: Context, g: Game, seed: string): Promise<string> {
  const seeds = commitmentsOf(g);
  const mine = seeds.find((c) => c.user_id === ctx.actor.userId);
  if (!mine) refuse(`You have no commitment in ${g.name}: commit first with /game seed commit:<SHA-256 of your seed>.`);
  if (mine.seed !== null) refuse('Your seed is already revealed.');
  if (commitment(seed) !== mine.commitment) refuse(`That seed's SHA-256 is ${commitment(seed)}, not the ${mine.commitment} you committed to.`);
  const next = seeds.map((c) => (c === mine ? { ...c, seed } : c));
  await tx.roster.setSeedCommitments(g.id, next);
  await recordGame(
    tx,
    ctx,
    g,
    { player_seed: seed, seed_commitment: mine.commitment },
    'seed_added',
    'Seed revealed',
    `${ctx.actor.userName} revealed a seed.`,
  );
  const waiting = next.filter((c) => c.seed === null).map((c) => c.user_name);
  return `Seed revealed: \`${seed}\`. ${waiting.length ? `Still to reveal: ${waiting.join(', ')}.` : 'Every committed seed is revealed: the dice may roll.'}`;
}

export default {
  name: 'game',
  description: 'Run a game in this channel: its system, turn and phase tag every roll made in it',
  example: '/game start system:wacht-am-rhein name:"The Bulge"',
  subcommands: {
    start: defineSubcommand({
      description: 'Start a game in this channel (one at a time)',
      access: EVERYONE,
      options: {
        system: choice({ description: 'The rule system the game uses', choices: SYSTEMS, required: true }),
        name: text({ description: 'A name for the game', maxLength: 80, required: true }),
      },
      async run(ctx, o) {
        const { ledger } = ctx.services;
        const seed = newServerSeed();
        try {
          const game = await ledger.transaction(async (tx) => {
            const g = await tx.roster.startGame({
              id: newRollId(),
              guild_id: ctx.actor.guildId,
              channel_id: ctx.actor.channelId,
              system: o.system,
              name: o.name,
              started_by: ctx.actor.userId,
              started_at: tx.timestamp(),
              server_seed: seed,
            });
            // The commitment is public from the first row; the seed itself only at the end.
            await recordGame(
              tx,
              ctx,
              g,
              { system: o.system, name: o.name, commitment: commitment(seed) },
              'game_started',
              'Game started',
              `${userText(ctx.actor.userName)} started ${userText(o.name)} (${SYSTEM_NAMES[o.system]}).`,
            );
            return g;
          }, ctx.actor.guildId);
          const note = [
            `Rolls of ${SYSTEM_NAMES[o.system]} in this channel now belong to this game. Set the turn with /game turn.`,
            `**Fair dice.** The dice come from a secret server seed whose SHA-256 is \`${commitment(seed)}\`. Before the first roll each player may commit to a seed (/game seed commit:<SHA-256>) and, once all have committed, reveal it (/game seed reveal:<seed>); /game end reveals the server seed so every die can be recomputed.`,
          ].join('\n');
          return message(gameEmbed('Game started', game, { note }));
        } catch (err) {
          if (err instanceof GameRunningError) {
            refuse(`A game is already running in this channel: ${err.game.name} (${systemName(err.game.system)}). End it with /game end first.`);
          }
          throw err;
        }
      },
    }),
    seed: defineSubcommand({
      description: "Your seed for the game's dice: commit to its hash first, reveal it once all have committed",
      access: EVERYONE,
      options: {
        commit: text({ description: 'SHA-256 (64 hex digits) of a seed only you know: e.g. sha256sum of a phrase', maxLength: 64 }),
        reveal: text({ description: 'The seed you committed to: its SHA-256 must match', maxLength: 100 }),
      },
      check: (o) => (Boolean(o.commit) === Boolean(o.reveal) ? 'Give exactly one of `commit` (the hash) or `reveal` (the seed).' : undefined),
      async run(ctx, o) {
        const { g, note } = await unitOfWork(ctx, null, async (at) => {
          const g = runningGame(at);
          if ((await at.tx.gameRollCount(g.guild_id, g.id)) > 0) refuse(`${g.name} has rolled already: seeds are taken only before the first roll.`);
          const note = o.commit ? await commitSeed(at.tx, ctx, g, o.commit) : await revealSeed(at.tx, ctx, g, o.reveal!);
          return { g, note };
        });
        return message(gameEmbed(o.commit ? 'Seed committed' : 'Seed revealed', g, { note }));
      },
    }),
    turn: defineSubcommand({
      description: 'Set the current turn (and phase)',
      access: EVERYONE,
      options: {
        number: integer({ description: 'The turn number', min: 0, max: 10_000, required: true }),
        phase: text({ description: 'The phase, e.g. "Rally Phase" (Wacht am Rhein: resting, ena, movement, combat)', maxLength: 60, autocomplete: true }),
      },
      async run(ctx, o) {
        const { g, updated, lines } = await unitOfWork(ctx, null, async ({ tx, ...at }) => {
          const g = runningGame(at);
          assertOwnerOrGm(ctx, g.started_by, NOT_MANAGER(g));
          // Wacht am Rhein knows its phases by one key, so two spellings never make two phases.
          const phase = o.phase === undefined ? null : g.system === 'wacht-am-rhein' ? phaseKey(o.phase) : o.phase;
          await tx.roster.setTurn(g.id, o.number, phase);
          const after = (await tx.roster.game(g.guild_id, g.id))!;
          const row = await recordGame(tx, ctx, after, { turn: o.number, phase }, 'turn_set', 'Turn set', `Turn ${o.number}${phase ? `, ${phase}` : ''}.`);
          // The rules' end-of-turn effects, recorded with the turn that caused them.
          return { g, updated: after, lines: await turnEnd(tx, ctx, g, after, row.id) };
        });
        const note = lines.length ? `**End of turn ${g.turn}**\n${lines.join('\n')}` : undefined;
        return message(gameEmbed('Turn', updated, note ? { note } : {}));
      },
    }),
    status: defineSubcommand({
      description: "The game's system, turn, roster size and rolls so far",
      access: EVERYONE,
      options: {},
      async run(ctx) {
        const g = runningGame(await readScope(ctx));
        const { ledger } = ctx.services;
        return message(
          gameEmbed('Game', g, {
            units: await ledger.roster.countUnits(g.id),
            rolls: await ledger.gameRollCount(g.guild_id, g.id),
            rulings: await ledger.gameRulingCount(g.guild_id, g.id),
          }),
        );
      },
    }),
    end: defineSubcommand({
      description: 'End the game (its roster stays readable in the history)',
      access: EVERYONE,
      options: {},
      async run(ctx) {
        const { ledger } = ctx.services;
        const { g, ended, lapsed } = await unitOfWork(ctx, null, async ({ tx, ...at }) => {
          const g = runningGame(at);
          assertOwnerOrGm(ctx, g.started_by, NOT_MANAGER(g));
          // Offers still open at the end lapse with it (Hearts of Tin's commander re-roll), inside the game.
          const lapsed = await gameEnd(tx, ctx, g);
          // The reveal: with it, anyone holding the export can recompute every die of the game.
          await recordGame(
            tx,
            ctx,
            g,
            { ended: true, server_seed: g.server_seed, player_seeds: JSON.parse(g.player_seeds) },
            'game_ended',
            'Game ended',
            `${userText(ctx.actor.userName)} ended ${userText(g.name)}; the server seed is revealed.`,
          );
          await tx.roster.endGame(g.id, tx.timestamp());
          return { g, ended: (await tx.roster.game(g.guild_id, g.id))!, lapsed };
        });
        const note = `${lapsed.length ? `${lapsed.join('\n')}\n` : ''}Server seed revealed: \`${g.server_seed}\` (its SHA-256 was published at the start). Check every die with \`npm run verify -- export.jsonl\` after /export.`;
        return message(
          gameEmbed('Game ended', ended, { units: await ledger.roster.countUnits(g.id), rolls: await ledger.gameRollCount(g.guild_id, g.id), note }),
        );
      },
    }),
  },
  // A Wacht am Rhein game offers its phase keys; other systems' phases are free text.
  async autocomplete(ctx, option, value, subcommand) {
    if (subcommand !== 'turn' || option !== 'phase') return [];
    const g = await ctx.services.ledger.roster.activeGame(ctx.actor.guildId, ctx.actor.channelId);
    if (g?.system !== 'wacht-am-rhein') return [];
    return PHASE_KEYS.filter((p) => p.startsWith(value.trim().toLowerCase())).map((p) => ({ name: p, value: p }));
  },
} satisfies CommandGroup;
