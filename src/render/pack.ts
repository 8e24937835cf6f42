import type { APIEmbed, APIEmbedField } from 'discord.js';
import type { Pack } from '../rules/packs/load.js';
import type { PackInput } from '../rules/packs/modifiers.js';
import type { PackLimit, PackStep } from '../rules/packs/roll.js';
import { gradeId, resultsOf } from '../rules/packs/results.js';
import { format, ordered, toNumber, type Fraction } from '../rules/odds.js';
import { ownValue } from '../rules/packs/modifiers.js';
import type { UnitChange } from '../rules/packs/input.js';
import type { Outcome } from '../rules/types.js';
import { clip, headlineOf, modifierLine, noticeEmbed, number, oddsField, resultEmbed, stepFields, userText, worstTone } from './embed.js';
import { percentIn, say } from '../i18n/reader.js';
import { signed } from '../util/numbers.js';

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
      // A choice written { value, label } is shown by its label.
      const label = o.type === 'choice' ? o.choices.find((c) => typeof c !== 'string' && c.value === v) : undefined;
      const shown = typeof label === 'object' ? label.label : String(v);
      return `${o.name.replaceAll('_', ' ')} ${typeof v === 'boolean' ? say(v ? 'pack.yes' : 'pack.no') : userText(shown)}`;
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
  outcome: { steps: PackStep[]; tone: Outcome['tone']; odds?: Outcome['odds']; unit?: UnitChange | undefined };
  row: { id: string; hash: string };
  /** The re-roll taken on it, which replaces its result. */
  reroll?: PackReroll;
}): APIEmbed {
  const steps = a.outcome.steps.map(escapedStep);
  const who = a.unit ? ` · ${userText(a.unit)}` : '';
  const fields = stepsFields(a.pack, steps);
  const reroll = a.reroll && rerollFields(a.pack, a.reroll);
  return resultEmbed({
    title: clip(`${userText(a.pack.name)}${who}`, 200),
    headline: headlineOf(a.reroll ? a.reroll.outcome.steps.map(escapedStep) : steps),
    userName: a.userName,
    tone: a.reroll ? worstTone(a.reroll.outcome.steps.map((s) => s.tone)) : worstTone([a.outcome.tone, ...steps.map((s) => s.tone)]),
    description: [inputLine(a.pack, a.input), ...sourceLines(a.sources), ...unitLines(a)].join('\n'),
    fields: [...fields, ...(a.outcome.odds ? [oddsField(a.outcome.odds)] : []), ...(reroll ?? [])],
    rollId: a.row.id,
    hash: a.row.hash,
    footerExtra: say('pack.footer', { id: a.pack.pack, version: String(a.pack.version) }),
  });
}

/** A re-roll as shown under the roll it replaces: who took it, its tests, its odds. */
export type PackReroll = { label: string; userName: string; row: { id: string }; outcome: { steps: PackStep[]; odds?: Outcome['odds'] } };

/** Each test of a roll as fields: a follow-up headed by its label (never its id), the notes the bot adds. */
function stepsFields(pack: Pack, steps: PackStep[], heading?: string): APIEmbedField[] {
  return steps.flatMap((s, i) => {
    const notes = [
      ...(s.special ? [say('pack.natural')] : []),
      ...(s.margin !== undefined && s.grade !== undefined ? [say('pack.margin', { margin: number(s.margin) })] : []),
      ...(s.limits ?? []).map((l) => limitLine(pack, l)),
    ];
    const head = i ? (s.heading !== undefined ? userText(s.heading) : say('pack.followUp')) : heading;
    return [...targetField(s), ...stepFields(s, head !== undefined ? { heading: head, notes } : { notes })];
  });
}

/** A unit field a change held within its bounds, or brought to one where something fires. */
function limitLine(pack: Pack, l: PackLimit): string {
  const field = l.field.replaceAll('_', ' ');
  const lines: string[] = [];
  if (l.clampedFrom !== undefined) lines.push(say('pack.limitClamped', { field, value: number(l.value), raw: number(l.clampedFrom) }));
  if (l.effect !== undefined) lines.push(say('pack.limitReached', { field, value: number(l.value), effect: userText(l.effect) }));
  if (l.then !== undefined) {
    const test = pack.tests[l.then]?.label;
    lines.push(say('pack.limitThen', { field, value: number(l.value), test: test !== undefined ? userText(test) : say('pack.followUp') }));
  }
  return lines.join('\n');
}

function rerollFields(pack: Pack, r: PackReroll): APIEmbedField[] {
  const heading = `${userText(r.label)} · ${userText(r.userName)}`;
  return [
    { name: heading, value: say('pack.rerollOf', { id: r.row.id }), inline: false },
    ...stepsFields(pack, r.outcome.steps.map(escapedStep), userText(r.label)),
    ...(r.outcome.odds ? [oddsField(r.outcome.odds, userText(r.label))] : []),
  ];
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

/**
 * What the roll wrote to its roster unit, in the reader's language: `pins 2 → 3` where the roll
 * took the field's value from the unit (its input records it), else the change itself (`pins +1`,
 * `state → worn`); or its removal from the roster.
 */
function unitLines(a: { pack: Pack; unit?: string; input: PackInput; sources?: { fromUnit: string[] }; outcome: { unit?: UnitChange | undefined } }): string[] {
  const change = a.outcome.unit;
  if (a.unit === undefined || !change) return [];
  const unit = userText(a.unit);
  if (change.remove) return [say('pack.unitRemoved', { unit })];
  const shown = (v: number | string) => (typeof v === 'number' ? number(v) : userText(v));
  const changes = (a.pack.unit_fields ?? []).flatMap((f) => {
    const field = f.name.replaceAll('_', ' ');
    const set = ownValue(change.set, f.name);
    const add = ownValue(change.add, f.name) ?? 0;
    const from = valueTaken(a, f.name);
    if (from !== undefined && (set !== undefined || add)) {
      const to = f.type === 'integer' ? Math.min(f.max, Math.max(f.min, (typeof set === 'number' ? set : Number(from)) + add)) : (set ?? from);
      return to === from ? [] : [say('pack.fieldFromTo', { field, from: shown(from), to: shown(to) })];
    }
    if (set !== undefined) return [say('pack.fieldSet', { field, to: shown(set) })];
    return add ? [say('pack.fieldAdded', { field, by: signed(add) })] : [];
  });
  return changes.length ? [say('pack.unitChanged', { unit, changes: changes.join(', ') })] : [];
}

/** A unit field's value as the roll took it from the unit (through an option's `from_unit`, or by its own name), if it did. */
function valueTaken(a: { pack: Pack; input: PackInput; sources?: { fromUnit: string[] } }, field: string): number | string | undefined {
  const taken = a.sources?.fromUnit ?? [];
  const option = a.pack.options.find((o) => o.from_unit === field && taken.includes(o.name));
  const name = option?.name ?? (taken.includes(field) ? field : undefined);
  const v = name === undefined ? undefined : ownValue(a.input, name);
  return typeof v === 'number' || typeof v === 'string' ? v : undefined;
}

/** The label a chain of result ids reads as: "Panic → Routs". */
function chainLabel(pack: Pack, chain: string): string {
  const labels = new Map(
    Object.values(pack.tests).flatMap((t) =>
      resultsOf(t).flatMap((r) => [
        [r.id, r.result.label] as const,
        ...(t.results?.[r.id]?.grades ?? []).map((g) => [`${r.id}:${gradeId(g)}`, g.label] as const),
      ]),
    ),
  );
  return chain
    .split(' → ')
    .map((id) => labels.get(id) ?? id)
    .join(' → ');
}

/** `odds_only`: the exact chance of every result for these options, best first; nothing rolled. */
export function packOddsEmbed(pack: Pack, input: PackInput, dist: Map<string, Fraction>, order: { order: string[]; then: string[] }): APIEmbed {
  // The percentages as the reader's language writes them (24,1 %); the labels as the pack wrote them.
  const rows = ordered(dist, order.order, order.then).map((r) =>
    say('pack.oddsRow', { label: userText(chainLabel(pack, r.result)), fraction: format(r.p), pct: percentIn(toNumber(r.p)) }),
  );
  return noticeEmbed(say('pack.oddsTitle', { pack: userText(pack.name) }), [inputLine(pack, input), '', ...rows, '', say('pack.nothingRolled')].join('\n'));
}
