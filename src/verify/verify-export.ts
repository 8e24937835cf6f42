import { verifyChain, type ChainedRow, type ChainReport } from '../ledger/chain.js';
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

/** Reads JSON Lines; a line that is not a JSON object is reported by number. */
export function readJsonl(text: string): { rows: Row[]; errors: string[] } {
  const rows: Row[] = [];
  const errors: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try {
      const v = JSON.parse(line);
      if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('not an object');
      rows.push(v as Row);
    } catch {
      errors.push(`line ${i + 1} is not a JSON object`);
    }
  });
  return { rows, errors };
}

/**
 * Checks an export offline: each guild's hash chain, and for every game whose server seed is
 * revealed, the commitment and every die recomputed from the seed.
 */
export function verifyExport(text: string): ExportReport {
  const { rows, errors } = readJsonl(text);
  const lines = [...errors];
  const byGuild = new Map<string, Row[]>();
  for (const r of rows) byGuild.set(r.guild_id, [...(byGuild.get(r.guild_id) ?? []), r]);
  const chains = [...byGuild.entries()].map(([guildId, list]) => {
    const report = verifyChain([...list].sort((a, b) => a.guild_seq - b.guild_seq));
    lines.push(
      report.ok
        ? `guild ${guildId}: chain intact, ${report.count} rows, head hash ${report.headHash}`
        : `guild ${guildId}: chain BROKEN at row ${report.broken.id} (position ${report.broken.guildSeq}): ${report.broken.reason}; ${report.count} rows before it hold`,
    );
    return { guildId, report };
  });

  const games: ExportReport['games'] = [];
  const input = (r: Row) => (r.input ?? {}) as Record<string, unknown>;
  for (const start of rows.filter((r) => r.kind === 'game' && r.result === 'game_started')) {
    const gameId = String(input(start).game);
    const end = rows.find((r) => r.kind === 'game' && r.result === 'game_ended' && input(r).game === gameId);
    const seed = end && typeof input(end).server_seed === 'string' ? (input(end).server_seed as string) : undefined;
    if (!seed) {
      lines.push(`game ${gameId}: seed not revealed (game still running, or not in this export): dice not checked`);
      continue;
    }
    if (commitment(seed) !== input(start).commitment) {
      games.push({ gameId, ok: false, checked: 0, problem: 'the revealed seed does not match the commitment published at the start' });
      lines.push(`game ${gameId}: FAILED: the revealed seed does not match the commitment published at the start`);
      continue;
    }
    const playerSeeds = rows
      .filter((r) => r.kind === 'game' && r.result === 'seed_added' && input(r).game === gameId)
      .sort((a, b) => a.guild_seq - b.guild_seq)
      .map((r) => String(input(r).player_seed));
    const rolls = rows.filter((r) => r.game_id === gameId && typeof r.game_seq === 'number' && r.dice.length);
    let problem: string | undefined;
    for (const r of rolls) {
      const roller = seededRoller(seed, gameId, playerSeeds, r.game_seq!);
      const expected = r.dice.map(() => roller.roll(DIE_SIDES));
      if (expected.join() !== r.dice.join()) {
        problem = `roll ${r.id} (game roll ${r.game_seq}) has dice ${r.dice.join(' ')} but the seed gives ${expected.join(' ')}`;
        break;
      }
    }
    games.push({ gameId, ok: !problem, checked: rolls.length, ...(problem ? { problem } : {}) });
    lines.push(
      problem ? `game ${gameId}: FAILED: ${problem}` : `game ${gameId}: seed matches its commitment; all ${rolls.length} rolls' dice recomputed and equal`,
    );
  }
  if (!rows.length && !errors.length) lines.push('the export has no rows');
  const ok = !errors.length && rows.length > 0 && chains.every((c) => c.report.ok) && games.every((g) => g.ok);
  return { ok, lines, chains, games };
}
