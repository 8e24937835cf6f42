import { isPackRoll } from './pack-rolls.js';
import { sealCommitment, type ChainedRow } from '../ledger/chain.js';
import { BEACON_SCHEME, commitment, gameRoller, isPerPlayer, PLAYER_KEY_SCHEME, PLAYER_SCHEME } from '../dice/seeded.js';
import { checkBeacons, beaconDrawOf } from './beacon-checks.js';
import type { BeaconCheck } from './beacon-precheck.js';
import { checkEvidence, type EvidenceLookup } from './evidence.js';
import { parseExpression, sidesOf } from '../rules/dice/expression.js';

/**
 * The promises a ledger makes beyond its chain, checked from its rows alone: every reveal opens
 * its roll's commitment, and every game's rolls are numbered, seeded and diced as published. One
 * module serves both verifiers: the offline one over an export, and /verify in the bot over the
 * guild's rows.
 */

/** `salts`: on a row committing to its person fields (people.ts), the salts an export carries to open them. */
export type Row = ChainedRow & { seq?: number; message_id?: string | null; salts?: Record<string, string> };

/**
 * The plain rolls the checks did not keep whole (no game, not sealed), by where they were rolled:
 * a game's check asks whether one of its system fell in its channel during it (it must not). An
 * export's reader keeps their positions only; /verify gives the rows it read.
 */
export type PlainRolls = (
  where: { guildId: string; channelId: string; system: string },
  after: number,
  before: number,
) => { id?: string; seq: number } | undefined;

/** The plain-roll index of rows held in memory (every row given: kept ones are skipped by the caller's filter). */
export const plainRollsOf =
  (rows: Row[]): PlainRolls =>
  (where, after, before) => {
    const r = rows.find(
      (x) =>
        x.game_id === null &&
        (x.kind === 'roll' || x.kind === 'reroll') &&
        x.guild_id === where.guildId &&
        x.channel_id === where.channelId &&
        x.system === where.system &&
        x.guild_seq > after &&
        x.guild_seq < before,
    );
    return r && { id: r.id, seq: r.guild_seq };
  };

/** Every die of the rule systems and of /dr is a d6. */
export const DIE_SIDES = 6;

/**
 * The size of each die a row drew, in order: /roll dice rows (recorded under `roll`) draw the dice
 * their expression names, a rule pack's rolls those of their tests; every other row draws d6s. An
 * expression that no longer parses gives none.
 */
export function dieSidesOf(r: Row, count: number): number[] {
  // A rule pack's roll records the size of each die it drew (its re-adjudication holds them to the pack).
  if (isPackRoll(r)) return ((r.outcome as { steps?: { sides?: number[] }[] } | null)?.steps ?? []).flatMap((s) => s.sides ?? []);
  if (r.command !== 'roll') return new Array<number>(count).fill(DIE_SIDES);
  try {
    return sidesOf(parseExpression(String(input(r).expression ?? '')));
  } catch {
    return [];
  }
}

/** What a reveal published of a sealed roll: its dice and its outcome. */
type Revealed = { dice: number[]; outcome: unknown };

/** A check's finding: the lines it reports, and whether it failed. */
export type Found = { ok: boolean; lines: string[] };

/** A game's verdict. */
export type GameVerdict = { gameId: string; ok: boolean; checked: number; problem?: string; scripted?: true };

export const input = (r: Row) => (r.input ?? {}) as Record<string, unknown>;
const isSealedRow = (r: Row) => Boolean((r.outcome as { sealed?: boolean } | null)?.sealed);

/**
 * Sealed rolls: each reveal must open its roll's commitment, the roll looked up in the reveal's own
 * guild only (`rows` are one guild's); `elsewhere` names a guild where a roll of that id is, which
 * is a failure too: a forged guild must not lend its rows to a real one's checks.
 */
export function checkReveals(rows: Row[], elsewhere: (id: string) => string | undefined = () => undefined): Found {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const lines: string[] = [];
  for (const rv of rows.filter((r) => r.kind === 'reveal' && input(r).salt !== undefined)) {
    const id = String(input(rv).roll);
    const sealed = byId.get(id);
    const committed = (sealed?.outcome as { commitment?: string } | undefined)?.commitment;
    const opens = revealOpens(rv);
    if (sealed && opens !== undefined && committed === sealCommitment(String(input(rv).salt), opens)) continue;
    const other = sealed ? undefined : elsewhere(id);
    lines.push(
      `reveal ${rv.id}: FAILED: ${sealed ? 'its salt and payload do not open the commitment of' : 'there is no'} sealed roll ${id}${sealed ? '' : ` in its guild ${rv.guild_id}`}${other ? ` (a row of that id is in guild ${other})` : ''}`,
    );
  }
  return { ok: !lines.length, lines };
}

/**
 * What a reveal opens its roll's commitment with: a committed reveal (people.ts) by its payload as
 * its chain holds it (as the sealed roll committed to it, people committed); any other by its payload.
 */
function revealOpens(rv: Row): unknown {
  if (typeof rv.chained !== 'string') return input(rv).payload;
  // The row's chain holds the payload as the sealed roll committed to it; the walk held the plain payload to it.
  try {
    return (JSON.parse(rv.chained) as { input?: { payload?: unknown } }).input?.payload;
  } catch {
    return undefined;
  }
}

const isRoll = (r: Row) => r.kind === 'roll' || r.kind === 'reroll';
type GameCheck = { problem: string; checked?: number } | { stream: Row[]; playerSeeds: string[] };

/** The game stream: every roll of the game numbered 1..n in chain order, none of its system in its channel outside it; its player seeds. */
function gameStream(rows: Row[], start: Row, gameId: string, end: Row | undefined, plain: PlainRolls): GameCheck {
  const chain = [...rows].sort((a, b) => a.guild_seq - b.guild_seq);
  const during = chain.filter((r) => r.guild_seq > start.guild_seq && (!end || r.guild_seq < end.guild_seq));
  const stream = chain.filter((r) => r.game_id === gameId && isRoll(r));
  const firstWrong = stream.findIndex((r, i) => r.game_seq !== i + 1);
  if (firstWrong >= 0) {
    const r = stream[firstWrong]!;
    return {
      problem: `roll ${r.id} is game roll ${String(r.game_seq)} where ${firstWrong + 1} was due: the game's rolls must be numbered 1..n in chain order (a gap, a duplicate or a moved roll)`,
    };
  }
  const system = String(input(start).system);
  const kept = during.find((r) => isRoll(r) && r.game_id !== gameId && r.channel_id === start.channel_id && r.system === system);
  const outside = kept
    ? { id: kept.id, seq: kept.guild_seq }
    : plain({ guildId: start.guild_id, channelId: start.channel_id, system }, start.guild_seq, end?.guild_seq ?? Number.POSITIVE_INFINITY);
  if (outside)
    return {
      problem: `the roll at position ${outside.seq}${outside.id ? ` (${outside.id})` : ''} is a ${system} roll in the game's channel during the game, but not part of it`,
    };
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
function recomputeDice(stream: Row[], game: { seed: string; id: string; scheme: string | null; playerSeeds: string[] }, revealed: Map<string, Revealed>) {
  let unrevealed = 0;
  let erased = 0;
  const k = new Map<string, number>();
  const keys = new PlayerKeys();
  for (const r of stream) {
    // A per-player die of a game started before player-v2 is keyed to the Discord id erased with its player.
    if (game.scheme === PLAYER_SCHEME && isErasedMaker(r)) {
      erased++;
      continue;
    }
    // player-v2 numbers and keys each player's rolls by their salt's id, which outlives their erasure.
    const playerKey = game.scheme === PLAYER_KEY_SCHEME ? makerKey(r) : undefined;
    if (game.scheme === PLAYER_KEY_SCHEME && !playerKey)
      return { problem: `roll ${r.id} (game roll ${r.game_seq}) commits to no key of its player: its dice cannot be drawn` };
    // One key a player, one player a key: a key given a player anew would start their dice again where the host chose.
    const rekeyed = playerKey ? keys.rekeyed(r.user_id, playerKey) : undefined;
    if (rekeyed) return { problem: `roll ${r.id} (game roll ${r.game_seq}): ${rekeyed}` };
    const who = playerKey ?? r.user_id;
    // A sealed roll not yet revealed still took its place in its player's sequence.
    const draw = {
      seq: r.game_seq!,
      userId: r.user_id,
      k: (k.get(who) ?? 0) + 1,
      playerKey,
      beacon: game.scheme === BEACON_SCHEME ? beaconDrawOf(r) : undefined,
    };
    k.set(who, draw.k);
    // A sealed roll as its reveal published it: its dice, and its outcome (a pack roll's die sizes are in it).
    const shown = isSealedRow(r) ? revealed.get(r.id) : { dice: r.dice, outcome: r.outcome };
    if (!shown) {
      unrevealed++;
      continue;
    }
    const dice = shown.dice;
    const roller = gameRoller(game.scheme, game.seed, game.id, game.playerSeeds, draw);
    const expected = dieSidesOf({ ...r, outcome: shown.outcome }, dice.length).map((sides) => roller.roll(sides));
    const which = isPerPlayer(game.scheme)
      ? `, ${r.user_name || 'an erased player'}'s roll ${draw.k}`
      : game.scheme === BEACON_SCHEME
        ? `, beacon round ${draw.beacon!.round}`
        : '';
    if (expected.join() !== dice.join())
      return { problem: `roll ${r.id} (game roll ${r.game_seq}${which}) has dice ${dice.join(' ')} but the seed gives ${expected.join(' ')}` };
  }
  return { unrevealed, erased };
}

/** A committed row whose maker was erased (people.ts): its id is blank beside a commitment whose salt is gone. */
const isErasedMaker = (r: Row) => typeof r.chained === 'string' && r.user_id === '';

/** The keys a game's rolls name, by player: each player keeps one, and no two players share one (an erased player's id is blank: only their key counts). */
class PlayerKeys {
  private readonly keyOf = new Map<string, string>();
  private readonly userOf = new Map<string, string>();

  /** Why this roll's key cannot be its player's, or undefined. */
  rekeyed(userId: string, key: string): string | undefined {
    const user = this.userOf.get(key);
    if (user !== undefined && userId !== '' && user !== userId) return `its key ${key} is another player's`;
    if (userId === '') return undefined;
    const known = this.keyOf.get(userId);
    if (known !== undefined && known !== key)
      return `its player rolled under key ${known} before, and now under ${key}: a key given anew starts their dice again`;
    this.keyOf.set(userId, key);
    this.userOf.set(key, userId);
    return undefined;
  }
}

/** The id of the salt a committed row's maker is committed under: their key in the server (player-v2). */
function makerKey(r: Row): string | undefined {
  if (typeof r.chained !== 'string') return undefined;
  try {
    const by = (JSON.parse(r.chained) as { user_id?: { by?: unknown } }).user_id?.by;
    return Array.isArray(by) && by.length === 1 && typeof by[0] === 'string' ? by[0] : undefined;
  } catch {
    return undefined;
  }
}

/** What makes a game that says it is scripted a real one: its first row's beacon, tournament or Discord key, or a roll's binding or signed request. */
function scriptedButReal(start: Row, stream: readonly Row[]): string | undefined {
  const first = input(start);
  if (first.dice_scheme === BEACON_SCHEME || first.beacon !== undefined) return 'its first row commits a beacon';
  if (first.fair !== undefined) return `its first row makes it a ${String(first.fair)} game`;
  if (first.discord_key !== undefined) return "its first row commits Discord's application key";
  const bound = stream.find((r) => input(r).beacon !== undefined || input(r).evidence !== undefined);
  return bound ? `roll ${bound.id} carries a beacon binding or a Discord-signed request` : undefined;
}

/** One game: its stream, its seeds, and (once its server seed is revealed) every die; `game` is absent while its dice cannot be checked. */
function checkGame(
  rows: Row[],
  start: Row,
  revealed: Map<string, Revealed>,
  plain: PlainRolls,
  beacons?: BeaconCheck,
  evidence: EvidenceLookup = () => undefined,
  discordKey?: string,
): { game?: GameVerdict; line: string } {
  const gameId = String(input(start).game);
  const failed = (problem: string, checked = 0) => ({ game: { gameId, ok: false, checked, problem }, line: `game ${gameId}: FAILED: ${problem}` });
  const end = rows.find((r) => r.kind === 'game' && r.result === 'game_ended' && input(r).game === gameId);
  const found = gameStream(rows, start, gameId, end, plain);
  if ('problem' in found) return failed(found.problem);
  // A dropped commitment is a seed someone chose not to reveal after seeing the others: whoever knew
  // the server seed could pick which seeds count, so such a game's dice prove nothing.
  const dropped = rows.filter((r) => r.kind === 'game' && r.result === 'seed_dropped' && input(r).game === gameId);
  if (dropped.length)
    return failed(
      `steerable: ${dropped.length} seed commitment${dropped.length === 1 ? '' : 's'} dropped (row${dropped.length === 1 ? '' : 's'} ${dropped.map((r) => r.id).join(', ')}): whoever knew the server seed could choose which seeds were revealed, so its dice prove nothing`,
    );
  const { stream, playerSeeds } = found;
  const scheme = typeof input(start).dice_scheme === 'string' ? (input(start).dice_scheme as string) : null;
  // A beacon game's rounds are checked whether or not its seed is out: they are public from the start.
  const beacon = scheme === BEACON_SCHEME ? checkBeacons(start, stream, beacons, rows) : undefined;
  if (beacon && !beacon.ok) return failed(beacon.problem);
  // Discord's signed requests behind the game's rows (HTTP mode), under the key its first row committed.
  const signed = checkEvidence(
    start,
    rows.filter((r) => (r.game_id ?? input(r).game) === gameId),
    evidence,
    discordKey,
  );
  if (!signed.ok) return failed(signed.problem);
  const more = [beacon?.said, signed.said]
    .filter(Boolean)
    .map((s) => `; ${s}`)
    .join('');
  // A scripted game's first row says its dice were typed in (the console's --dice): there is nothing to recompute.
  // The console never binds a beacon, keeps a signed request or plays a tournament: a game claiming to
  // be scripted beside any of them is a real game whose dice someone wants left unchecked.
  if (input(start).dice === 'scripted') {
    const real = scriptedButReal(start, stream);
    if (real) return failed(`its first row says its dice were typed in by hand (scripted), but ${real}: a real game's dice are never left unchecked`);
    return {
      ...(end ? { game: { gameId, ok: true, checked: 0, scripted: true as const } } : {}),
      line: `game ${gameId}: scripted: its first row says its dice were typed in by hand (the offline console's --dice), not drawn from its seed: none is checked; ${stream.length} rolls numbered 1..${stream.length}${more}`,
    };
  }
  const seed = end && typeof input(end).server_seed === 'string' ? (input(end).server_seed as string) : undefined;
  // Only a game that has not ended may leave its dice unchecked: an end that reveals no seed fails.
  if (end && !seed) return failed(`the game ended (row ${end.id}) but its end row reveals no server seed: its dice cannot be recomputed`);
  if (!seed) {
    return {
      line: `game ${gameId}: ${stream.length} rolls numbered 1..${stream.length}${more}; seed not revealed (game still running, or not in this export): dice not checked`,
    };
  }
  if (commitment(seed) !== input(start).commitment) return failed('the revealed seed does not match the commitment published at the start');
  const dice = recomputeDice(stream, { seed, id: gameId, scheme, playerSeeds }, revealed);
  if ('problem' in dice) return failed(dice.problem!, stream.length);
  const checked = stream.length - dice.unrevealed - dice.erased;
  const apart = [
    ...(dice.unrevealed ? [`${dice.unrevealed} sealed and not revealed`] : []),
    ...(dice.erased
      ? [`${dice.erased} NOT recomputed: rolls of an erased player, whose dice this game (player-v1) keyed to the Discord id erased with them`]
      : []),
  ];
  return {
    game: { gameId, ok: true, checked },
    line: `game ${gameId}: seed matches its commitment; ${apart.length ? `${checked} of ${stream.length}` : `all ${checked}`} rolls' dice recomputed and equal${apart.length ? ` (${apart.join('; ')})` : ''}; numbered 1..${stream.length} with no gap${more}`,
  };
}

/** Rows grouped by guild, each group in the order given. */
function byGuild(rows: Row[]): Map<string, Row[]> {
  const out = new Map<string, Row[]>();
  for (const r of rows) {
    const list = out.get(r.guild_id);
    if (list) list.push(r);
    else out.set(r.guild_id, [r]);
  }
  return out;
}

/** Row ids are drawn at random for the whole ledger: one id twice (in one guild or two) is a forged row. */
function duplicateIds(rows: Row[]): string[] {
  const seen = new Map<string, string>();
  const lines: string[] = [];
  for (const r of rows) {
    const first = seen.get(r.id);
    if (first !== undefined) lines.push(`row ${r.id}: FAILED: the id is in guild ${first} and again in guild ${r.guild_id}: every row's id is its own`);
    else seen.set(r.id, r.guild_id);
  }
  return lines;
}

/** Game rows (an end, a roll, a seed) of a game that did not start in their guild: named with where it did. */
function strangers(own: Row[], starts: Map<string, string>): string[] {
  const started = new Set(own.filter((r) => r.kind === 'game' && r.result === 'game_started').map((r) => String(input(r).game)));
  const named = new Set<string>();
  const lines: string[] = [];
  for (const r of own) {
    const game = r.game_id ?? (r.kind === 'game' ? (input(r).game as string | undefined) : undefined);
    if (!game || started.has(game) || named.has(game)) continue;
    named.add(game);
    const where = starts.get(game);
    lines.push(
      `game ${game}: FAILED: row ${r.id} in guild ${r.guild_id} belongs to it, but it did not start in that guild${where ? ` (it started in guild ${where})` : ''}`,
    );
  }
  return lines;
}

/**
 * Every reveal and every game of these rows, each guild's checked against its own rows only (any
 * order: they are sorted). `plain`: the plain rolls not among `rows` (an export's reader keeps only
 * their positions); by default the rows given are all there are.
 */
export function checkPromises(
  rows: Row[],
  plain: PlainRolls = plainRollsOf(rows),
  /** Beacon rounds' signatures: checked here by default, or looked up once checked ahead (beacon-precheck.ts). */
  beacons?: BeaconCheck,
  /** Discord's signed requests behind the rows, by interaction (evidence.ts). */
  evidence?: EvidenceLookup,
  /** Discord's application key as the reader pinned it (64 hex): the requests are checked under it. */
  discordKey?: string,
): Found & { games: GameVerdict[] } {
  const guilds = byGuild(rows);
  const starts = new Map(rows.filter((r) => r.kind === 'game' && r.result === 'game_started').map((r) => [String(input(r).game), r.guild_id]));
  const games: GameVerdict[] = [];
  const lines = duplicateIds(rows);
  let ok = !lines.length;
  for (const [guildId, own] of guilds) {
    const elsewhere = (id: string) => rows.find((r) => r.id === id && r.guild_id !== guildId)?.guild_id;
    const reveals = checkReveals(own, elsewhere);
    const stray = strangers(own, starts);
    const revealed = new Map(own.filter((r) => r.kind === 'reveal' && input(r).payload).map((r) => [String(input(r).roll), input(r).payload as Revealed]));
    lines.push(...reveals.lines, ...stray);
    ok &&= reveals.ok && !stray.length;
    for (const start of own.filter((r) => r.kind === 'game' && r.result === 'game_started')) {
      const { line, game } = checkGame(own, start, revealed, plain, beacons, evidence, discordKey);
      lines.push(line);
      // A game whose seed is not yet revealed is reported, but not listed as checked.
      if (game) games.push(game);
    }
  }
  return { ok: ok && games.every((g) => g.ok), lines, games };
}
