import { verifyChain, type ChainReport } from '../ledger/chain.js';
import { checkPromises, type Found, type GameVerdict, type Row } from './checks.js';

/** What `npm run verify` concludes about one export. */
export type ExportReport = {
  ok: boolean;
  lines: string[];
  chains: { guildId: string; report: ChainReport }[];
  games: GameVerdict[];
};

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

/**
 * Checks an export offline: each guild's hash chain (and that it extends a pinned head, when given);
 * every reveal against the commitment of its sealed roll; for every game, its rolls numbered 1..n in
 * chain order with no gap, duplicate or game roll left outside it; player seeds against their
 * commitments; and for every game whose server seed is revealed, every die recomputed.
 */
export function verifyExport(text: string, options: { head?: string } = {}): ExportReport {
  const { rows, errors } = readJsonl(text);
  const chains = checkChains(rows);
  const promises = checkPromises(rows);
  const found: Found[] = [chains, ...(options.head ? [checkPinnedHead(rows, options.head)] : []), promises];
  const lines = [...errors, ...found.flatMap((f) => f.lines)];
  if (!rows.length && !errors.length) lines.push('the export has no rows');
  const ok = !errors.length && rows.length > 0 && found.every((f) => f.ok);
  return { ok, lines, chains: chains.chains, games: promises.games };
}
