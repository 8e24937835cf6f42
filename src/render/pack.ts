import type { APIEmbed, APIEmbedField } from 'discord.js';
import type { Pack } from '../rules/packs/load.js';
import type { PackInput } from '../rules/packs/modifiers.js';
import type { PackStep } from '../rules/packs/roll.js';
import { resultsOf } from '../rules/packs/results.js';
import { format, ordered, percent, type Fraction } from '../rules/odds.js';
import type { Outcome } from '../rules/types.js';
import { clip, headlineOf, modifierLine, noticeEmbed, number, oddsField, resultEmbed, stepFields, userText, worstTone } from './embed.js';
import { say } from '../i18n/reader.js';

/**
 * A pack roll as the built-in systems show theirs, every text the pack's author wrote escaped:
 * the title says the outcome; each test as dice, modifiers, final and result; then the odds.
 */

/** A step with the author's words escaped (a label, effect, reference or modifier is never markdown). */
const escapedStep = (s: PackStep): PackStep => ({
  ...s,
  label: userText(s.label),
  effect: userText(s.effect),
  ref: userText(s.ref),
  modifiers: s.modifiers.map((m) => ({ ...m, reason: userText(m.reason) })),
});

/** The options as settled, in the pack's order, in one line: `nerve 7 · pins 2 · leader nco`. */
export const inputLine = (pack: Pack, input: PackInput) =>
  pack.options
    .filter((o) => input[o.name] !== undefined)
    .map((o) => {
      const v = input[o.name]!;
      return `${o.name.replaceAll('_', ' ')} ${typeof v === 'boolean' ? say(v ? 'pack.yes' : 'pack.no') : userText(String(v))}`;
    })
    .join(' · ');

function targetField(s: PackStep): APIEmbedField[] {
  const t = s.target;
  if (!t) return [];
  const mods = t.modifiers.map((m) => modifierLine({ ...m, reason: userText(m.reason) }));
  const clamped = t.clampedFrom !== undefined ? ` ${say('pack.clamped', { value: number(t.clampedFrom) })}` : '';
  const sign = t.compare === 'at_most' ? '≤' : '≥';
  return [
    {
      name: say('pack.target'),
      value: [
        `${number(t.base)}${mods.length ? ` ${say('pack.then')} ${mods.join(', ')}` : ''} → **${number(t.value)}**${clamped}`,
        say('pack.passes', { sign, value: number(t.value) }),
      ].join('\n'),
      inline: false,
    },
  ];
}

export function packEmbed(a: {
  pack: Pack;
  unit?: string;
  userName: string;
  input: PackInput;
  /** Options taken from the unit's fields, and those given over them. */
  sources?: { fromUnit: string[]; overridden: string[] };
  outcome: { steps: PackStep[]; tone: Outcome['tone']; odds?: Outcome['odds'] };
  row: { id: string; hash: string };
}): APIEmbed {
  const steps = a.outcome.steps.map(escapedStep);
  const who = a.unit ? ` · ${userText(a.unit)}` : '';
  const fields = steps.flatMap((s, i) => {
    const notes = s.special ? [say('pack.natural')] : [];
    return [...targetField(s), ...stepFields(s, i ? { heading: userText(s.kind.replaceAll('_', ' ')), notes } : { notes })];
  });
  return resultEmbed({
    title: clip(`${userText(a.pack.name)}${who}`, 200),
    headline: headlineOf(steps),
    userName: a.userName,
    tone: worstTone([a.outcome.tone, ...steps.map((s) => s.tone)]),
    description: [inputLine(a.pack, a.input), ...sourceLines(a.sources)].join('\n'),
    fields: [...fields, ...(a.outcome.odds ? [oddsField(a.outcome.odds)] : [])],
    rollId: a.row.id,
    hash: a.row.hash,
    footerExtra: say('pack.footer', { id: a.pack.pack, version: String(a.pack.version) }),
  });
}

/** Which options came from the unit's fields, and which the player gave over them. */
function sourceLines(s: { fromUnit: string[]; overridden: string[] } | undefined): string[] {
  if (!s) return [];
  const names = (xs: string[]) => xs.map((x) => x.replaceAll('_', ' ')).join(', ');
  return [
    ...(s.fromUnit.length ? [say('pack.fromUnit', { names: names(s.fromUnit) })] : []),
    ...(s.overridden.length ? [say('pack.overridden', { names: names(s.overridden) })] : []),
  ];
}

/** The label a chain of result ids reads as: "Panic → Routs". */
function chainLabel(pack: Pack, chain: string): string {
  const labels = new Map(Object.values(pack.tests).flatMap((t) => resultsOf(t).map((r) => [r.id, r.result.label] as const)));
  return chain
    .split(' → ')
    .map((id) => labels.get(id) ?? id)
    .join(' → ');
}

/** `odds_only`: the exact chance of every result for these options, best first; nothing rolled. */
export function packOddsEmbed(pack: Pack, input: PackInput, dist: Map<string, Fraction>, order: { order: string[]; then: string[] }): APIEmbed {
  const rows = ordered(dist, order.order, order.then).map((r) => `**${userText(chainLabel(pack, r.result))}** — ${format(r.p)} (${percent(r.p)})`);
  return noticeEmbed(say('pack.oddsTitle', { pack: userText(pack.name) }), [inputLine(pack, input), '', ...rows, '', say('pack.nothingRolled')].join('\n'));
}
