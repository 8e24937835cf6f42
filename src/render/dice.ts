import type { APIEmbed } from 'discord.js';
import type { LedgerRow } from '../ledger/rows.js';
import type { DrOutcome } from '../rules/asl/dr.js';
import { ratio } from '../rules/dice/distribution.js';
import type { RolledExpression } from '../rules/dice/expression.js';
import { dieText, resultEmbed, signed, userText } from './embed.js';

/** An exact chance as the reply shows it: a fraction where it is short, a percentage, or "1 in N" when tiny. */
export function chanceText(fraction: string): string {
  const [n, d = '1'] = fraction.split('/');
  const p = ratio(BigInt(n!), BigInt(d));
  const pct =
    p >= 0.001 ? `${(p * 100).toFixed(p >= 0.1 ? 1 : 2)}%` : 1 / p < 1e15 ? `1 in ${Math.round(1 / p).toLocaleString('en')}` : `${p.toExponential(2)}`;
  return d.length <= 9 ? `${fraction} (${pct})` : pct;
}

/** What every dice roll's outcome carries besides its dice (/dr, /roll dice). */
export type DiceOdds = { exactly: string; or_better: string };
export type DrShown = DrOutcome & { side?: string; note?: string; odds?: DiceOdds };
export type RollShown = RolledExpression & { side?: string; note?: string; odds?: DiceOdds; odds_skipped?: string };

const noteLine = (note: string | undefined) => (note ? [`*${userText(note)}*`] : []);

/** /dr: coloured die first, then white (VASL's convention), Original, DRM and Final, the notes, the odds. */
export function drEmbed(row: Pick<LedgerRow, 'id' | 'hash' | 'user_name' | 'unit'>, o: DrShown): APIEmbed {
  const dice = o.white === undefined ? dieText(o.coloured, 'coloured') : `${dieText(o.coloured, 'coloured')} · ${dieText(o.white, 'white')}`;
  const totals = o.drm ? `Original **${o.original}** · DRM \`${signed(o.drm)}\` · Final **${o.final}**` : `Original **${o.original}**`;
  const odds = o.odds ? `Original ${o.original}: ${chanceText(o.odds.exactly)} · ${o.original} or lower: ${chanceText(o.odds.or_better)}` : undefined;
  return resultEmbed({
    title: `${o.category === 'other' ? '' : `${o.category} `}${o.dice}${row.unit ? ` · ${userText(row.unit)}` : ''}`,
    headline: o.drm ? `Final ${o.final}` : `${o.original}`,
    userName: row.user_name,
    tone: 'neutral',
    description: [dice, totals, ...noteLine(o.note)].join('\n'),
    fields: [
      ...(o.notes.length ? [{ name: 'Notes', value: o.notes.map((n) => `• ${n}`).join('\n'), inline: false }] : []),
      ...(odds ? [{ name: 'Odds', value: odds, inline: false }] : []),
    ],
    rollId: row.id,
    hash: row.hash,
  });
}

/** One term's dice, kept ones plain and dropped ones struck through. */
const termDice = (t: RolledExpression['terms'][number]) => t.dice.map((d, i) => (t.kept[i] ? String(d) : `~~${d}~~`)).join(' ');

/** /roll dice: every die, each term's subtotal, the total, and the odds (or why there are none). */
export function rollEmbed(row: Pick<LedgerRow, 'id' | 'hash' | 'user_name'>, o: RollShown): APIEmbed {
  // One term: its dice are the answer the title already gives; several: each subtotal, then the total.
  const single = o.terms.length === 1;
  const terms = o.terms.map((t, i) =>
    single
      ? `\`${t.text}\` ${termDice(t)}`
      : `\`${t.sign < 0 ? '−' : i ? '+' : ''}${t.text}\` ${t.dice.length ? `${termDice(t)} → ` : ''}**${i || t.sign < 0 ? signed(t.subtotal) : t.subtotal}**`,
  );
  const odds = o.odds
    ? `${o.total}: ${chanceText(o.odds.exactly)} · ${o.total} or higher: ${chanceText(o.odds.or_better)}`
    : (o.odds_skipped ?? 'odds not computed');
  return resultEmbed({
    title: `${o.shape} → ${o.total}`,
    userName: row.user_name,
    tone: 'neutral',
    description: [...terms, ...(single ? [] : [`Total **${o.total}**`]), ...noteLine(o.note)].join('\n'),
    fields: [{ name: 'Odds', value: odds, inline: false }],
    rollId: row.id,
    hash: row.hash,
  });
}
