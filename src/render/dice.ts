import type { APIEmbed } from 'discord.js';
import type { LedgerRow } from '../ledger/rows.js';
import type { DrOutcome } from '../rules/asl/dr.js';
import { ratio } from '../rules/dice/distribution.js';
import type { RolledExpression } from '../rules/dice/expression.js';
import { dieText, resultEmbed, signed, userText } from './embed.js';
import { percentIn, readerLanguage, say, shown } from '../i18n/reader.js';

/** An exact chance as the reply shows it: a fraction where it is short, a percentage, or "1 in N" when tiny. */
export function chanceText(fraction: string): string {
  const [n, d = '1'] = fraction.split('/');
  const p = ratio(BigInt(n!), BigInt(d));
  const pct =
    p >= 0.001
      ? percentIn(p, p >= 0.1 ? 1 : 2)
      : 1 / p < 1e15
        ? say('dice.oneIn', { n: Math.round(1 / p).toLocaleString(readerLanguage()) })
        : `${p.toExponential(2)}`;
  return d.length <= 9 ? `${fraction} (${pct})` : pct;
}

/** What every dice roll's outcome carries besides its dice (/dr, /roll dice). */
export type DiceOdds = { exactly: string; or_better: string };
export type DrShown = DrOutcome & { side?: string; note?: string; odds?: DiceOdds };
/** Why a roll has no odds, as recorded: too many outcomes to count. */
export const SKIPPED_TOO_MANY = 'odds not computed: too many outcomes';
export type RollShown = RolledExpression & { side?: string; note?: string; odds?: DiceOdds; odds_skipped?: string };

const noteLine = (note: string | undefined) => (note ? [`*${userText(note)}*`] : []);

/** A DR's notes in the reader's language, as recorded where a roll predates their identifiers. */
const notesOf = (o: DrShown) => o.note_says?.map(shown) ?? o.notes;

/** /dr: coloured die first, then white (VASL's convention), Original, DRM and Final, the notes, the odds. */
export function drEmbed(row: Pick<LedgerRow, 'id' | 'hash' | 'user_name' | 'unit'>, o: DrShown): APIEmbed {
  const coloured = dieText(o.coloured, say('dieColoured'));
  const dice = o.white === undefined ? coloured : `${coloured} · ${dieText(o.white, say('dieWhite'))}`;
  const at = { original: String(o.original), final: String(o.final) };
  const totals = o.drm ? say('dr.totals', { ...at, drm: signed(o.drm) }) : say('dr.original', at);
  const odds = o.odds ? say('dr.odds', { ...at, exactly: chanceText(o.odds.exactly), orBetter: chanceText(o.odds.or_better) }) : undefined;
  const notes = notesOf(o);
  return resultEmbed({
    title: `${o.category === 'other' ? '' : `${o.category} `}${o.dice}${row.unit ? ` · ${userText(row.unit)}` : ''}`,
    headline: o.drm ? say('dr.headline', at) : `${o.original}`,
    userName: row.user_name,
    tone: 'neutral',
    description: [dice, totals, ...noteLine(o.note)].join('\n'),
    fields: [
      ...(notes.length ? [{ name: say('fieldNotes'), value: notes.map((n) => `• ${n}`).join('\n'), inline: false }] : []),
      ...(odds ? [{ name: say('fieldOdds'), value: odds, inline: false }] : []),
    ],
    rollId: row.id,
    hash: row.hash,
  });
}

/** One term's dice, kept ones plain and dropped ones struck through. */
const termDice = (t: RolledExpression['terms'][number]) => t.dice.map((d, i) => (t.kept[i] ? String(d) : `~~${d}~~`)).join(' ');

/** Dice written back as the reader wrote them: 2W6 to a German reader who typed W, else as recorded (2d6). */
function diceAsWritten(row: { input?: unknown }): (text: string) => string {
  const typed = String((row.input as { expression?: unknown } | undefined)?.expression ?? '');
  const w = readerLanguage() === 'de' && /\d*w(\d|%)/i.test(typed);
  return (text) => (w ? text.replace(/(\d*)d(\d+|%)/g, '$1W$2') : text);
}

/** /roll dice: every die, each term's subtotal, the total, and the odds (or why there are none). */
export function rollEmbed(row: Pick<LedgerRow, 'id' | 'hash' | 'user_name'> & { input?: unknown }, o: RollShown): APIEmbed {
  const written = diceAsWritten(row);
  // One term: its dice are the answer the title already gives; several: each subtotal, then the total.
  const single = o.terms.length === 1;
  const terms = o.terms.map((t, i) =>
    single
      ? `\`${written(t.text)}\` ${termDice(t)}`
      : `\`${t.sign < 0 ? '−' : i ? '+' : ''}${written(t.text)}\` ${t.dice.length ? `${termDice(t)} → ` : ''}**${i || t.sign < 0 ? signed(t.subtotal) : t.subtotal}**`,
  );
  const odds = o.odds
    ? say('dice.odds', { total: String(o.total), exactly: chanceText(o.odds.exactly), orBetter: chanceText(o.odds.or_better) })
    : o.odds_skipped === SKIPPED_TOO_MANY
      ? say('dice.oddsTooMany')
      : (o.odds_skipped ?? say('dice.oddsNone'));
  return resultEmbed({
    title: `${written(o.shape)} → ${o.total}`,
    userName: row.user_name,
    tone: 'neutral',
    description: [...terms, ...(single ? [] : [say('dice.total', { total: String(o.total) })]), ...noteLine(o.note)].join('\n'),
    fields: [{ name: say('fieldOdds'), value: odds, inline: false }],
    rollId: row.id,
    hash: row.hash,
  });
}
