import type { Context } from '../../src/core/command.js';
import { isOwnerOrGm } from '../../src/core/access.js';
import { record } from '../../src/core/record.js';
import { changeOutcome } from '../../src/core/roster-unit.js';
import { refuse } from '../../src/core/user-error.js';
import { BEACON_SCHEME, commitment } from '../../src/dice/seeded.js';
import { commitmentsOf, gameOptionsOf, type Game } from '../../src/ledger/roster.js';
import type { LedgerTx } from '../../src/ledger/transaction.js';
import { quoted, userText } from '../../src/render/embed.js';
import { command, list, option, said } from '../../src/i18n/said.js';
import { say } from '../../src/i18n/reader.js';

/**
 * Player seed commitments one game takes: one per player who joined a side, so accounts made to
 * fill the slots must first join the game in the open; the bound is only on each roll's work, far
 * above any table (20 accounts no longer lock players out).
 */
export const MAX_SEEDS_PER_GAME = 200;

/** The refusal when someone other than the game's starter or a GM tries to change it. */
export const notManager = (g: Game) => said('onlyStarterOrGm', { game: userText(g.name) });

/** Records a change to the game as a ledger row in the same transaction as the change. */
export function recordGame(tx: LedgerTx, ctx: Context, g: Game, input: Record<string, unknown>, result: string, label: string, why: string) {
  return record(tx, ctx, { command: 'game', kind: 'game', input: { game: g.id, ...input } }, changeOutcome(g.system, result, label, why));
}
/** A player's seed commitment, decided from the game as read in the command's transaction; returns the reply's note. */
export async function commitSeed(tx: LedgerTx, ctx: Context, g: Game, commit: string): Promise<string> {
  if (g.dice_scheme === BEACON_SCHEME) refuse('beaconNoSeeds', { game: userText(g.name) });
  const seeds = commitmentsOf(g);
  const hash = commit.trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(hash)) refuse('badCommitment', { commit: option('commit'), given: quoted(commit) });
  if (!gameOptionsOf(g).sides?.[ctx.actor.userId]) refuse('commitNeedsSide', { game: userText(g.name), join: command('game join') });
  if (seeds.some((c) => c.user_id === ctx.actor.userId)) refuse('alreadyCommitted', { game: userText(g.name), seed: command('game seed') });
  // Once a seed is out, a later commitment could be chosen knowing it: the last player would steer the dice.
  if (seeds.some((c) => c.seed !== null)) refuse('commitmentsClosed', { game: userText(g.name) });
  if (seeds.length >= MAX_SEEDS_PER_GAME) refuse('tooManySeeds', { game: userText(g.name), max: MAX_SEEDS_PER_GAME });
  const next = [...seeds, { user_id: ctx.actor.userId, user_name: ctx.actor.userName, commitment: hash, seed: null }];
  await tx.roster.setSeedCommitments(g.id, next);
  await recordGame(tx, ctx, g, { seed_commitment: hash }, 'seed_committed', 'Seed committed', `${ctx.actor.userName} committed to a seed.`);
  return say('game.commitTaken', { n: String(next.length), seed: command('game seed') });
}

/** A player's seed revealed against their commitment; returns the reply's note. */
export async function revealSeed(tx: LedgerTx, ctx: Context, g: Game, seed: string): Promise<string> {
  const seeds = commitmentsOf(g);
  const mine = seeds.find((c) => c.user_id === ctx.actor.userId);
  if (!mine) refuse('noCommitment', { game: userText(g.name), seed: command('game seed') });
  if (mine.seed !== null) refuse('seedRevealed');
  if (commitment(seed) !== mine.commitment) refuse('seedMismatch', { hash: commitment(seed), committed: mine.commitment });
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
  const rest = waiting.length ? say('game.stillToReveal', { players: list(waiting.map(userText)) }) : say('game.allRevealed');
  return say('game.seedShown', { seed, rest });
}

/**
 * The game's starter or a GM drops a commitment never revealed, so one absent player cannot hold
 * every die of the game; recorded, naming who dropped it. Every verifier then reports the game's
 * dice as steerable (a seed withheld after the others were seen), and the reply says so.
 */
export async function dropSeed(tx: LedgerTx, ctx: Context, g: Game, userId: string): Promise<string> {
  if (!isOwnerOrGm(ctx, g.started_by)) refuse('dropSeedOwner', { game: userText(g.name) });
  const seeds = commitmentsOf(g);
  const theirs = seeds.find((c) => c.user_id === userId);
  if (!theirs) refuse('noCommitmentOf', { user: userId, game: userText(g.name), status: command('game status') });
  if (theirs.seed !== null) refuse('revealedSeedStays', { player: userText(theirs.user_name) });
  const next = seeds.filter((c) => c !== theirs);
  await tx.roster.setSeedCommitments(g.id, next);
  const why = `${userText(ctx.actor.userName)} dropped ${userText(theirs.user_name)}'s unrevealed seed commitment.`;
  await recordGame(tx, ctx, g, { seed_dropped: theirs.commitment, seed_of: theirs.user_id }, 'seed_dropped', 'Seed commitment dropped', why);
  return say('game.droppedNote', { who: userText(ctx.actor.userName), player: userText(theirs.user_name), waiting: waitingLine(next) });
}

/** What the first roll waits for, as /game status and the seed replies say it. */
export function waitingLine(seeds: { user_name: string; seed: string | null }[]): string {
  const waiting = seeds.filter((c) => c.seed === null).map((c) => userText(c.user_name));
  if (!seeds.length) return say('game.noSeeds');
  return waiting.length ? say('game.waitingFor', { players: list(waiting), seed: command('game seed') }) : say('game.allRevealed');
}
