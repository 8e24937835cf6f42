import { sealCommitment, type ChainedRow } from '../ledger/chain.js';
import { commitment, gameRoller, PLAYER_SCHEME } from '../dice/seeded.js';
import { parseExpression, sidesOf } from '../rules/dice/expression.js';

/**
 * The promises a ledger makes beyond its chain, checked from its rows alone: every reveal opens
 * its roll's commitment, and every game's rolls are numbered, seeded and diced as published. One
 * module serves both verifiers: the offline one over an export, and /verify in the bot over the
 * guild's rows (design.md, Every promise checked in-bot and offline).
 */

export type Row = ChainedRow & { seq?: number; message_id?: string | null };

/** Every die of the rule systems and of /dr is a d6. */
export const DIE_SIDES = 6;

/**
 * The size of each die a row drew, in order: /roll dice rows (recorded under `roll`) draw the dice
 * their expression names; every other row draws d6s. An expression that no longer parses gives none.
 */
export function dieSidesOf(r: Row, count: number): number[] {
  if (r.command !== 'roll') return new Array<number>(count).fill(DIE_SIDES);
  try {
    return sidesOf(parseExpression(String(input(r).expression ?? '')));
  } catch {
    return [];
  }
}

/** A check's finding: the lines it reports, and whether it failed. */
export type Found = { ok: boolean; lines: string[] };

/** A game's verdict. */
export type GameVerdict = { gameId: string; ok: boolean; checked: number; problem?: string };

export const input = (r: Row) => (r.input ?? {}) as Record<string, unknown>;
const isSealedRow = (r: Row) => Boolean((r.outcome as { sealed?: boolean } | null)?.sealed);

/** Sealed rolls: each reveal must open its roll's commitment. */
export function checkReveals(rows: Row[]): Found {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const lines: string[] = [];
  for (const rv of rows.filter((r) => r.kind === 'reveal' && input(r).salt !== undefined)) {
    const sealed = byId.get(String(input(rv).roll));
    const committed = (sealed?.outcome as { commitment?: string } | undefined)?.commitment;
    if (sealed && committed === sealCommitment(String(input(rv).salt), input(rv).payload)) continue;
    lines.push(
      `reveal ${rv.id}: FAILED: ${sealed ? 'its salt and payload do not open the commitment of' : 'there is no'} sealed roll ${String(input(rv).roll)}`,
    );
  }
  return { ok: !lines.length, lines };
}

const isRoll = (r: Row) => r.kind === 'roll' || r.kind === 'reroll';
type GameCheck = { problem: string; checked?: number } | { stream: Row[]; playerSeeds: string[] };

/** The game stream: every roll of the game numbered 1..n in chain order, none of its system in its channel outside it; its player seeds. */
function gameStream(rows: Row[], start: Row, gameId: string, end: Row | undefined): GameCheck {
  const chain = rows.filter((r) => r.guild_id === start.guild_id).sort((a, b) => a.guild_seq - b.guild_seq);
  const during = chain.filter((r) => r.guild_seq > start.guild_seq && (!end || r.guild_seq < end.guild_seq));
  const stream = chain.filter((r) => r.game_id === gameId && isRoll(r));
  const firstWrong = stream.findIndex((r, i) => r.game_seq !== i + 1);
  if (firstWrong >= 0) {
    const r = stream[firstWrong]!;
    return {
      problem: `roll ${r.id} is game roll ${String(r.game_seq)} where ${firstWrong + 1} was due: the game's rolls must be numbered 1..n in chain order (a gap, a duplicate or a moved roll)`,
    };
  }
  const outside = during.find((r) => isRoll(r) && r.game_id !== gameId && r.channel_id === start.channel_id && r.system === input(start).system);
  if (outside) return { problem: `roll ${outside.id} is a ${String(input(start).system)} roll in the game's channel during the game, but not part of it` };
  // Player seeds: each revealed seed against its commitment, in the order the commitments were made.
  const committed = chain.filter((r) => r.kind === 'game' && r.result === 'seed_committed' && input(r).game === gameId);
  const added = chain.filter((r) => r.kind === 'game' && r.result === 'seed_added' && input(r).game === gameId);
  if (!committed.length) return { stream, playerSeeds: added.map((r) => String(input(r).player_seed)) };
  const wrong = added.find((r) => commitment(String(input(r).player_seed)) !== input(r).seed_commitment);
  if (wrong) return { problem: `seed revealed in ${wrong.id} does not match its commitment` };
  const seedOf = new Map(added.map((r) => [String(input(r).seed_commitment), String(input(r).player_seed)]));
  return { stream, playerSeeds: committed.map((r) => seedOf.get(String(input(r).seed_commitment))).filter((s): s is string => s !== undefined) };
}

/**
 * Every die of the stream recomputed from the revealed server seed, under the game's scheme (a game
 * started before per-player dice has none: by position); sealed rolls not yet revealed are counted
 * apart. Per player, each roll is that player's next: a roll inserted into, or moved within, a
 * player's sequence moves every later die of theirs, and is caught.
 */
function recomputeDice(stream: Row[], game: { seed: string; id: string; scheme: string | null; playerSeeds: string[] }, revealedDice: Map<string, number[]>) {
  let unrevealed = 0;
  const k = new Map<string, number>();
  for (const r of stream) {
    // A sealed roll not yet revealed still took its place in its player's sequence.
    const draw = { seq: r.game_seq!, userId: r.user_id, k: (k.get(r.user_id) ?? 0) + 1 };
    k.set(r.user_id, draw.k);
    const dice = isSealedRow(r) ? revealedDice.get(r.id) : r.dice;
    if (!dice) {
      unrevealed++;
      continue;
    }
    const roller = gameRoller(game.scheme, game.seed, game.id, game.playerSeeds, draw);
    const expected = dieSidesOf(r, dice.length).map((sides) => roller.roll(sides));
    const which = game.scheme === PLAYER_SCHEME ? `, ${r.user_name}'s roll ${draw.k}` : '';
    if (expected.join() !== dice.join())
      return { problem: `roll ${r.id} (game roll ${r.game_seq}${which}) has dice ${dice.join(' ')} but the seed gives ${expected.join(' ')}` };
  }
  return { unrevealed };
}

/** One game: its stream, its seeds, and (once its server seed is revealed) every die; `game` is absent while its dice cannot be checked. */
function checkGame(rows: Row[], start: Row, revealedDice: Map<string, number[]>): { game?: GameVerdict; line: string } {
  const gameId = String(input(start).game);
  const failed = (problem: string, checked = 0) => ({ game: { gameId, ok: false, checked, problem }, line: `game ${gameId}: FAILED: ${problem}` });
  const end = rows.find((r) => r.kind === 'game' && r.result === 'game_ended' && input(r).game === gameId);
  const found = gameStream(rows, start, gameId, end);
  if ('problem' in found) return failed(found.problem);
  const { stream, playerSeeds } = found;
  const seed = end && typeof input(end).server_seed === 'string' ? (input(end).server_seed as string) : undefined;
  if (!seed) {
    return {
      line: `game ${gameId}: ${stream.length} rolls numbered 1..${stream.length}; seed not revealed (game still running, or not in this export): dice not checked`,
    };
  }
  if (commitment(seed) !== input(start).commitment) return failed('the revealed seed does not match the commitment published at the start');
  const scheme = typeof input(start).dice_scheme === 'string' ? (input(start).dice_scheme as string) : null;
  const dice = recomputeDice(stream, { seed, id: gameId, scheme, playerSeeds }, revealedDice);
  if ('problem' in dice) return failed(dice.problem!, stream.length);
  const checked = stream.length - dice.unrevealed;
  return {
    game: { gameId, ok: true, checked },
    line: `game ${gameId}: seed matches its commitment; all ${checked} rolls' dice recomputed and equal${dice.unrevealed ? ` (${dice.unrevealed} sealed and not revealed)` : ''}; numbered 1..${stream.length} with no gap`,
  };
}

/** Every reveal and every game of these rows (each guild's rows in chain order, or any order: they are sorted). */
export function checkPromises(rows: Row[]): Found & { games: GameVerdict[] } {
  const reveals = checkReveals(rows);
  const revealedDice = new Map(
    rows.filter((r) => r.kind === 'reveal' && input(r).payload).map((r) => [String(input(r).roll), (input(r).payload as { dice: number[] }).dice]),
  );
  const games: GameVerdict[] = [];
  const lines = [...reveals.lines];
  for (const start of rows.filter((r) => r.kind === 'game' && r.result === 'game_started')) {
    const { line, game } = checkGame(rows, start, revealedDice);
    lines.push(line);
    // A game whose seed is not yet revealed is reported, but not listed as checked.
    if (game) games.push(game);
  }
  return { ok: reveals.ok && games.every((g) => g.ok), lines, games };
}
