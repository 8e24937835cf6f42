import { quoted, userText } from '../../src/render/embed.js';
import { verifyPage } from '../../src/core/verify-page.js';
import { assertOwnerOrGm, EVERYONE } from '../../src/core/access.js';
import { message } from '../../src/core/replies.js';
import { refuse } from '../../src/core/user-error.js';
import { defineSubcommand, type CommandGroup, type Context } from '../../src/core/command.js';
import { boolean, choice, integer, text, user } from '../../src/core/options.js';
import { systemModule } from '../systems.js';
import { boobyTraps, join, optionLines, san } from './game-options.js';
import { commitSeed, dropSeed, notManager, recordGame, revealSeed, waitingLine } from './seeds.js';
import { readScope, runningGame } from '../../src/core/games.js';
import { unitOfWork, type TxScope } from '../../src/core/unit-of-work.js';
import { revealIn } from '../../src/core/reveal.js';
import { BEACON_SCHEME, commitment, newServerSeed, PLAYER_KEY_SCHEME } from '../../src/dice/seeded.js';
import { publicChainName, type BeaconChain } from '../../src/beacon/chain.js';
import { newRollId } from '../../src/ledger/next-row.js';
import { commitmentsOf, GameRunningError, gameOptionsOf, playerSeedsOf, type Game } from '../../src/ledger/roster.js';
import { gameEmbed } from '../../src/render/roster.js';
import { isSystemId, packSystem, SYSTEMS, systemName } from '../../src/rules/systems.js';
import { installedPacks } from '../../src/core/packs.js';
import { PHASE_KEYS, phaseKey } from '../../src/rules/wacht-am-rhein/fatigue.js';
import { command, list, option, said } from '../../src/i18n/said.js';
import { waitingRoll } from '../../src/core/beacon-binding.js';
import { clock, onTurn } from '../ask/clock.js';
import { say } from '../../src/i18n/reader.js';

/**
 * The server seed published at the end would let anyone recompute a sealed roll's dice, so the
 * game ends only once none is left unrevealed, voided ones included: a GM may end it
 * with reveal_sealed:true, which reveals them all in this transaction. Returns a line per reveal.
 */
async function revealSealedAtEnd(at: TxScope, ctx: Context, g: Game, revealAll: boolean): Promise<string[]> {
  const sealed = await at.tx.unrevealedSealed(g.guild_id, g.id);
  if (!sealed.length) return [];
  if (!revealAll || !ctx.actor.isGm) {
    const ids = sealed.map((r) => `\`${r.id}\``).join(', ');
    refuse('sealedUnrevealed', { game: userText(g.name), n: sealed.length, ids, reveal: command('reveal') });
  }
  const lines: string[] = [];
  for (const row of sealed) {
    await revealIn(at, ctx, row);
    lines.push(say('game.sealedRevealed', { id: row.id, player: userText(row.user_name), show: command('roll show') }));
  }
  return lines;
}

/**
 * A game ends only once none of its rolls waits for its beacon round: ending it then would leave
 * the roll to be rolled outside the game, and the bot never rolls a bound roll itself. Named, so
 * the table knows whose rolls it waits for.
 */
async function assertNoRollBound(at: TxScope, g: Game): Promise<void> {
  const waiting = await at.tx.history.waitingBindings(g.id, g.guild_id, g.channel_id);
  if (!waiting.length) return;
  refuse('boundRollsWaiting', { game: userText(g.name), n: waiting.length, rolls: list(waiting.map(waitingRoll), 'comma') });
}

/** How a game's rolls are held to account: a club's, or a tournament's (every roll Discord-signed). */
const FAIRNESS = ['club', 'tournament'] as const;

/**
 * A tournament game needs what makes every roll provable to an opponent: requests Discord signs
 * (HTTP interactions mode, kept as evidence) and dice from the public beacon.
 */
function assertTournamentReady(ctx: Context): void {
  if (!ctx.evidence) refuse('tournamentNeedsHttp');
  if (!ctx.services.beacon) refuse('tournamentNeedsBeacon');
}

/** A commitment as a player compares it: its first 12 hex digits (the whole is on the ledger, in every export). */
const fingerprint = (sha256: string) => `${sha256.slice(0, 12)}…`;

/** What the start of a game says of its dice: where they come from, and how anyone checks them. */
function fairDiceNote(committed: string, chain: BeaconChain | undefined): string {
  const values = { fingerprint: fingerprint(committed), end: command('game end') };
  if (chain) return say('game.fairBeacon', { ...values, private: publicChainName(chain) ? 'no' : 'yes' });
  return say('game.fairSeeded', { ...values, seed: command('game seed') });
}

/** The system a game is started with: a built-in one, or a rule pack installed here (`pack:<id>`). */
async function gameSystem(ctx: Context, typed: string): Promise<string> {
  const id = typed
    .trim()
    .toLowerCase()
    .replace(/^pack:/, '');
  if (isSystemId(id)) return id;
  const packs = await installedPacks(ctx);
  if (packs.has(id)) return packSystem(id);
  const names = [...SYSTEMS, ...packs.keys()].join(', ');
  const values = { system: option('system'), given: quoted(typed), names };
  return refuse(packs.size ? said('notASystem', values) : said('notASystemNoPacks', { ...values, install: command('pack install') }));
}

/** The built-in systems and this server's rule packs that start with what is typed. */
async function systemChoices(ctx: Context, value: string) {
  const typed = value.trim().toLowerCase();
  const packs = [...(await installedPacks(ctx)).values()].map((p) => ({ name: say('game.rulePack', { name: p.pack.name }).slice(0, 100), value: p.pack.pack }));
  const builtIn = SYSTEMS.map((s) => ({ name: systemName(s), value: s }));
  return [...builtIn, ...packs].filter((c) => c.value.startsWith(typed) || c.name.toLowerCase().includes(typed));
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
        system: text({ description: 'The rule system the game uses', maxLength: 40, required: true, autocomplete: true }),
        name: text({ description: 'A name for the game', maxLength: 80, required: true }),
        fair: choice({
          description: "tournament: every roll must be Discord's signed request, kept as evidence (HTTP mode with a beacon)",
          choices: FAIRNESS,
          default: 'club',
        }),
      },
      async run(ctx, o) {
        const { ledger, scriptedDice: scripted } = ctx.services;
        // Hand-fed dice (the console's --dice) bind no beacon round: their game says so on its first row instead.
        const beacon = scripted ? undefined : ctx.services.beacon;
        const system = await gameSystem(ctx, o.system);
        const tournament = o.fair === 'tournament';
        if (tournament) assertTournamentReady(ctx);
        const seed = newServerSeed();
        // Every new game of a bot with a beacon is a beacon game; without one, per-player dice keyed to each player's salt id.
        const scheme = beacon ? BEACON_SCHEME : PLAYER_KEY_SCHEME;
        try {
          const game = await ledger.transaction(async (tx) => {
            const g = await tx.roster.startGame({
              id: newRollId(),
              guild_id: ctx.actor.guildId,
              channel_id: ctx.actor.channelId,
              system,
              name: o.name,
              started_by: ctx.actor.userId,
              started_at: tx.timestamp(),
              server_seed: seed,
              // The game keeps its scheme (and its beacon chain) to its end.
              dice_scheme: scheme,
            });
            if (beacon) await tx.roster.setGameOption(g.id, 'beacon', beacon.chain);
            if (tournament) await tx.roster.setGameOption(g.id, 'fair', 'tournament');
            if (scripted) await tx.roster.setGameOption(g.id, 'dice', 'scripted');
            // The commitment is public from the first row; the seed itself only at the end.
            await recordGame(
              tx,
              ctx,
              g,
              {
                system,
                name: o.name,
                commitment: commitment(seed),
                dice_scheme: scheme,
                // The chain, and the relays its rounds are asked from: whose relays they were is on the record.
                ...(beacon ? { beacon: beacon.chain, relays: [...beacon.relays] } : {}),
                // The key Discord's signatures on this game's requests are checked under (HTTP mode).
                ...(ctx.evidence ? { discord_key: ctx.evidence.key } : {}),
                ...(tournament ? { fair: 'tournament' } : {}),
                // Committed before any roll: a verifier reads the game as scripted, never a game made so after its dice disappointed.
                ...(scripted ? { dice: 'scripted' } : {}),
              },
              'game_started',
              'Game started',
              `${userText(ctx.actor.userName)} started ${userText(o.name)} (${systemName(system)}).`,
            );
            return g;
          }, ctx.actor.guildId);
          const note = [
            say('game.belongs', { system: systemName(system), turn: command('game turn') }),
            scripted ? say('game.scriptedDice') : fairDiceNote(commitment(seed), beacon?.chain),
            ...(tournament ? [say('game.tournament', { acknowledge: say('reply.acknowledge') })] : []),
          ].join('\n');
          return message(gameEmbed(say('game.started'), game, { note }));
        } catch (err) {
          if (err instanceof GameRunningError) {
            refuse('gameRunning', { game: userText(err.game.name), system: systemName(err.game.system), end: command('game end') });
          }
          throw err;
        }
      },
    }),
    seed: defineSubcommand({
      description: "A player on a side: your seed for the game's dice; commit its hash, reveal once all have committed",
      access: EVERYONE,
      options: {
        commit: text({ description: 'SHA-256 (64 hex digits) of a seed only you know: e.g. sha256sum of a phrase', maxLength: 64 }),
        reveal: text({ description: 'The seed you committed to: its SHA-256 must match', maxLength: 100 }),
        drop: user({ description: "Drop a player's unrevealed commitment (starter or GM): verifiers then call the dice steerable" }),
      },
      check: (o) =>
        [o.commit, o.reveal, o.drop].filter(Boolean).length !== 1
          ? said('oneSeedAction', { commit: option('commit'), reveal: option('reveal'), drop: option('drop') })
          : undefined,
      async run(ctx, o) {
        const { g, note } = await unitOfWork(ctx, null, async (at) => {
          const g = runningGame(at);
          if ((await at.tx.gameRollCount(g.guild_id, g.id)) > 0) refuse('seedsAfterRoll', { game: userText(g.name) });
          const note = o.commit
            ? await commitSeed(at.tx, ctx, g, o.commit)
            : o.reveal
              ? await revealSeed(at.tx, ctx, g, o.reveal)
              : await dropSeed(at.tx, ctx, g, o.drop!);
          return { g, note };
        });
        return message(gameEmbed(say(o.commit ? 'game.seedCommitted' : o.reveal ? 'game.seedRevealed' : 'game.seedDropped'), g, { note }));
      },
    }),
    turn: defineSubcommand({
      description: 'Set the current turn (and phase)',
      access: EVERYONE,
      options: {
        number: integer({ description: 'The turn number', min: 0, max: 10_000, required: true }),
        phase: text({ description: 'The phase, e.g. "Rally Phase" (Wacht am Rhein: resting, ena, movement, combat)', maxLength: 60, autocomplete: true }),
        player: user({ description: 'Whose move it is now: reminded after the time /game clock sets' }),
      },
      async run(ctx, o) {
        const { g, updated, lines, move } = await unitOfWork(ctx, null, async ({ tx, ...at }) => {
          const g = runningGame(at);
          assertOwnerOrGm(ctx, g.started_by, notManager(g));
          // Wacht am Rhein knows its phases by one key, so two spellings never make two phases.
          const phase = o.phase === undefined ? null : g.system === 'wacht-am-rhein' ? phaseKey(o.phase) : o.phase;
          await tx.roster.setTurn(g.id, o.number, phase);
          const after = (await tx.roster.game(g.guild_id, g.id))!;
          const row = await recordGame(
            tx,
            ctx,
            after,
            { turn: o.number, phase },
            'turn_set',
            'Turn set',
            `Turn ${o.number}${phase ? `, ${userText(phase)}` : ''}.`,
          );
          // The rules' end-of-turn effects, recorded with the turn that caused them.
          const lines = (await systemModule(after.system)?.hooks.turnEnd?.(tx, ctx, g, after, row.id)) ?? [];
          return { g, updated: after, lines, move: await onTurn(tx, ctx, after, o.player) };
        });
        const effects = lines.length ? `${say('game.endOfTurn', { turn: String(g.turn) })}\n${lines.join('\n')}` : undefined;
        const note = [effects, move].filter(Boolean).join('\n') || undefined;
        return message(gameEmbed(say('game.turnTitle'), updated, note ? { note } : {}));
      },
    }),
    clock,
    join,
    san,
    booby_traps: boobyTraps,
    status: defineSubcommand({
      description: "The game's system, turn, roster size and rolls so far",
      access: EVERYONE,
      options: {},
      async run(ctx) {
        const g = runningGame(await readScope(ctx));
        const { ledger } = ctx.services;
        return message(
          gameEmbed(say('game.status'), g, {
            units: await ledger.roster.countUnits(g.id),
            rolls: await ledger.gameRollCount(g.guild_id, g.id),
            rulings: await ledger.gameRulingCount(g.guild_id, g.id),
            note: [waitingLine(commitmentsOf(g)), ...optionLines(gameOptionsOf(g))].filter(Boolean).join('\n') || undefined,
          }),
        );
      },
    }),
    end: defineSubcommand({
      description: 'End the game and reveal its server seed (its roster stays readable in the history)',
      access: EVERYONE,
      options: {
        reveal_sealed: boolean({ description: 'GM: reveal every sealed roll of the game first (otherwise they block the end)', default: false }),
      },
      async run(ctx, o) {
        const { ledger } = ctx.services;
        const { g, ended, lines } = await unitOfWork(ctx, null, async (at) => {
          const g = runningGame(at);
          assertOwnerOrGm(ctx, g.started_by, notManager(g));
          await assertNoRollBound(at, g);
          const lines = [...(await revealSealedAtEnd(at, ctx, g, o.reveal_sealed)), ...((await systemModule(g.system)?.hooks.gameEnd?.(at.tx, ctx, g)) ?? [])];
          // The reveal: with it, anyone holding the export can recompute every die of the game.
          await recordGame(
            at.tx,
            ctx,
            g,
            { ended: true, server_seed: g.server_seed, player_seeds: playerSeedsOf(g) },
            'game_ended',
            'Game ended',
            `${userText(ctx.actor.userName)} ended ${userText(g.name)}; the server seed is revealed.`,
          );
          await at.tx.roster.endGame(g.id, at.tx.timestamp());
          return { g, ended: (await at.tx.roster.game(g.guild_id, g.id))!, lines };
        });
        const note = [...lines, say('game.endNote', { seed: String(g.server_seed), export: command('export') })].join('\n');
        const page = verifyPage();
        return {
          ...message(
            gameEmbed(say('game.ended'), ended, { units: await ledger.roster.countUnits(g.id), rolls: await ledger.gameRollCount(g.guild_id, g.id), note }),
          ),
          ...(page ? { files: [page] } : {}),
        };
      },
    }),
  },
  // The systems, the server's rule packs among them; a Wacht am Rhein game's phase keys (other systems' phases are free text).
  async autocomplete(ctx, option, value, subcommand) {
    if (subcommand === 'start' && option === 'system') return systemChoices(ctx, value);
    if (subcommand !== 'turn' || option !== 'phase') return [];
    const g = await ctx.services.ledger.roster.activeGame(ctx.actor.guildId, ctx.actor.channelId);
    if (g?.system !== 'wacht-am-rhein') return [];
    return PHASE_KEYS.filter((p) => p.startsWith(value.trim().toLowerCase())).map((p) => ({ name: p, value: p }));
  },
} satisfies CommandGroup;
