import { sealCommitment, verifyChain, type ChainedRow, type ChainReport } from '../ledger/chain.js';
import { commitment, seededRoller } from '../dice/seeded.js';

/** What `npm run verify` concludes about one export. */
export type ExportReport = {
  ok: boolean;
  lines: string[];
  chains: { guildId: string; report: ChainReport }[];
  games: { gameId: string; ok: boolean; checked: number; problem?: string }[];
};

type Row = ChainedRow & { seq?: number; message_id?: string | null };

/** Every die in these rule systems is a d6. */
export const DIE_SIDES = 6;

/** The fields a row must carry, with their JSON type, so a malformed export is named, not crashed on. */
const REQUIRED: [string, (v: unknown) => boolean, string][] = [
  ['id', (v) => typeof v === 'string', 'text'],
  ['guild_id', (v) => typeof v === 'string', 'text'],
  ['guild_seq', (v) => Number.isInteger(v), 'a whole number'],
  ['kind', (v) => typeof v === 'string', 'text'],
  ['dice', (v) => Array.isArray(v) && v.every((d) => Number.isInteger(d)), 'a list of whole numbers'],
  ['prev_hash', (v) => typeof v === 'string', 'text'],
  ['hash', (v) => typeof v === 'string', 'text'],
];

/** Reads JSON Lines; a line that is not a row object is reported by number, with what is wrong. */
export function readJsonl(text: string): { rows: Row[]; errors: string[] } {
  const rows: Row[] = [];
  const errors: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      errors.push(`line ${i + 1} is not a JSON object`);
      return;
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      errors.push(`line ${i + 1} is not a JSON object`);
      return;
    }
    const bad = REQUIRED.filter(([k, ok]) => !ok((v as Record<string, unknown>)[k]));
    if (bad.length) {
      errors.push(`line ${i + 1} is not a ledger row: ${bad.map(([k, , what]) => `\`${k}\` must be ${what}`).join(', ')}`);
      return;
    }
    rows.push(v as Row);
  });
  return { rows, errors };
}

const input = (r: Row) => (r.input ?? {}) as Record<string, unknown>;
const isSealedRow = (r: Row) => Boolean((r.outcome as { sealed?: boolean } | null)?.sealed);

/** A check's finding: the lines it reports, and whether it failed. */
type Found = { ok: boolean; lines: string[] };

function checkChains(rows: Row[]): Found & { chains: ExportReport['chains'] } {
  const byGuild = new Map<string, Row[]>();
  for (const r of rows) byGuild.set(r.guild_id, [...(byGuild.get(r.guild_id) ?? []), r]);
  const lines: string[] = [];
  const chains = [...byGuild.entries()].map(([guildId, list]) => {
    const report = verifyChain([...list].sort((a, b) => a.guild_seq - b.guild_seq));
    lines.push(
      report.ok
        ? `guild ${guildId}: chain intact, ${report.count} rows, head hash ${report.headHash}`
        : `guild ${guildId}: chain BROKEN at row ${report.broken.id} (position ${report.broken.guildSeq}): ${report.broken.reason}; ${report.count} rows before it hold`,
    );
    return { guildId, report };
  });
  return { ok: chains.every((c) => c.report.ok), lines, chains };
}

/** The chain extends the head a player pinned earlier (from /verify): it must be in the export. */
function checkPinnedHead(rows: Row[], pinned: string): Found {
  const head = pinned.trim().toLowerCase();
  const at = rows.find((r) => r.hash === head);
  if (!at) return { ok: false, lines: [`pinned head ${head}: NOT in this export: the chain was rewritten or cut short before it`] };
  const later = rows.filter((r) => r.guild_id === at.guild_id && r.guild_seq > at.guild_seq).length;
  return { ok: true, lines: [`pinned head ${head}: found at position ${at.guild_seq} of guild ${at.guild_id}; ${later} rows after it`] };
}

/** Sealed rolls: each reveal must open its roll's commitment. */
function checkReveals(rows: Row[]): Found {
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

/** Every die of the stream recomputed from the revealed server seed; sealed rolls not yet revealed are counted apart. */
function recomputeDice(stream: Row[], seed: string, gameId: string, playerSeeds: string[], revealedDice: Map<string, number[]>) {
  let unrevealed = 0;
  for (const r of stream) {
    const dice = isSealedRow(r) ? revealedDice.get(r.id) : r.dice;
    if (!dice) {
      unrevealed++;
      continue;
    }
    const roller = seededRoller(seed, gameId, playerSeeds, r.game_seq!);
    const expected = dice.map(() => roller.roll(DIE_SIDES));
    if (expected.join() !== dice.join())
      return { problem: `roll ${r.id} (game roll ${r.game_seq}) has dice ${dice.join(' ')} but the seed gives ${expected.join(' ')}` };
  }
  return { unrevealed };
}

/** One game: its stream, its seeds, and (once its server seed is revealed) every die; `game` is absent while its dice cannot be checked. */
function checkGame(rows: Row[], start: Row, revealedDice: Map<string, number[]>): { game?: ExportReport['games'][number]; line: string } {
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
  const dice = recomputeDice(stream, seed, gameId, playerSeeds, revealedDice);
  if ('problem' in dice) return failed(dice.problem!, stream.length);
  const checked = stream.length - dice.unrevealed;
  return {
    game: { gameId, ok: true, checked },
    line: `game ${gameId}: seed matches its commitment; all ${checked} rolls' dice recomputed and equal${dice.unrevealed ? ` (${dice.unrevealed} sealed and not revealed)` : ''}; numbered 1..${stream.length} with no gap`,
  };
}

/**
 * Checks an export offline: each guild's hash chain (and that it extends a pinned head, when given);
 * every reveal against the commitment of its sealed roll; for every game, its rolls numbered 1..n in
 * chain order with no gap, duplicate or game roll left outside it; player seeds against their
 * commitments; and for every game whose server seed is revealed, every die recomputed.
 */
export function verifyExport(text: string, options: { head?: string } = {}): ExportReport {
  const { rows, errors } = readJsonl(text);
  const chains = checkChains(rows);
  const found: Found[] = [chains, ...(options.head ? [checkPinnedHead(rows, options.head)] : []), checkReveals(rows)];
  const revealedDice = new Map(
    rows.filter((r) => r.kind === 'reveal' && input(r).payload).map((r) => [String(input(r).roll), (input(r).payload as { dice: number[] }).dice]),
  );
  const games: ExportReport['games'] = [];
  const gameLines: string[] = [];
  for (const start of rows.filter((r) => r.kind === 'game' && r.result === 'game_started')) {
    const { line, game } = checkGame(rows, start, revealedDice);
    gameLines.push(line);
    // A game whose seed is not yet revealed is reported, but not listed as checked.
    if (game) games.push(game);
  }
  const lines = [...errors, ...found.flatMap((f) => f.lines), ...gameLines];
  if (!rows.length && !errors.length) lines.push('the export has no rows');
  const ok = !errors.length && rows.length > 0 && found.every((f) => f.ok) && games.every((g) => g.ok);
  return { ok, lines, chains: chains.chains, games };
}
