import type { APIEmbed, APIEmbedField } from 'discord.js';
import type { HobStep, NtcStep } from '../rules/asl/hob.js';
import type { CheckStep, WoundStep } from '../rules/asl/mc.js';
import { HOB_BANDS } from '../rules/asl/hob-table.js';
import type { Finding, Tone } from '../rules/types.js';
import { findingField, headlineOf, number, oddsField, resultEmbed, stepFields, userText, worstTone } from './embed.js';

export type AslStep = CheckStep | WoundStep | HobStep | NtcStep;

const range = (min: number, max: number) => (min === -Infinity ? `≤ ${max}` : max === Infinity ? `≥ ${min}` : `${min}–${max}`);

function notesFor(step: AslStep): string[] {
  if (step.kind === 'hob') {
    const band = HOB_BANDS.find((b) => b.code === step.band)!;
    // The band's name only where an override made the result another (a Berserk band read as Battle Hardening).
    const notes = [
      band.label === step.label
        ? `Final ${number(step.final)} is in its band, ${range(band.min, band.max)}.`
        : `Band for Final ${number(step.final)}: ${band.label} (${range(band.min, band.max)}).`,
    ];
    if (step.trigger) notes.unshift(`Triggered by the ${step.trigger}.`);
    return notes;
  }
  if (step.kind === 'ntc') return [`NTC for ${step.unit} against ML ${step.ml}.`];
  if (step.kind === 'wound') return ['Wound Severity dr: 1–4 a minor wound, 5 or more killed.'];
  // The effect already says "Final … ≤ ML 7" on a pass; the ML is named only where it does not.
  return step.effect.includes(`ML ${step.ml}`) ? [] : [`Against ML ${step.ml}.`];
}

const HEADINGS: Record<AslStep['kind'], string> = { mc: 'Morale Check', rally: 'Rally', wound: 'Wound Severity', hob: 'Heat of Battle', ntc: 'Berserk NTC' };

/** Every step of an ASL check as fields, the coloured die named first. */
export function aslFields(steps: AslStep[], decisions: Finding[] = []): APIEmbedField[] {
  const many = steps.length > 1;
  const fields = steps.flatMap((s) => {
    const heading = many ? HEADINGS[s.kind] : undefined;
    // A Commissar's companions go berserk with no roll (A25.223): a result, no dice.
    if (!s.dice.length) return [findingField(s, { heading: s.kind === 'ntc' ? 'Berserk' : heading })];
    // An ASL DR: the coloured die first, then the white.
    return stepFields(s, { heading, notes: notesFor(s), ...(s.dice.length === 2 ? { diceLabels: ['coloured', 'white'] } : {}) });
  });
  for (const d of decisions) fields.push(findingField(d, { heading: 'Decision' }));
  return fields;
}

export function aslEmbed(a: {
  title: string;
  userName: string;
  description: string;
  steps: AslStep[];
  tone: Tone;
  odds?: { exactly: string; or_better: string } | undefined;
  row: { id: string; hash: string };
  decisions?: { finding: Finding; rollId: string }[];
}): APIEmbed {
  return resultEmbed({
    title: a.title,
    headline: headlineOf(a.steps),
    userName: a.userName,
    tone: worstTone([a.tone, ...a.steps.map((s) => s.tone)]),
    description: a.description,
    fields: [
      ...aslFields(
        a.steps,
        a.decisions?.map((d) => d.finding),
      ),
      ...(a.odds ? [oddsField(a.odds, a.steps.length > 1 ? HEADINGS[a.steps[0]!.kind] : undefined)] : []),
    ],
    rollId: a.row.id,
    hash: a.row.hash,
    footerExtra: a.decisions?.length ? `decision ${a.decisions.map((d) => d.rollId).join(', ')}` : undefined,
  });
}

/**
 * The situation as one line, from the stored options, so a player can check what the DRMs rest on.
 * The conditions only Heat of Battle reads are listed only where a HoB DR was rolled (or is in the odds).
 */
export function describeSituation(o: Record<string, unknown>, hob = true): string {
  const ifHob = (s: string | undefined) => (hob ? s : undefined);
  return [
    o.counter ? String(o.counter) : undefined,
    o.check === 'rally' ? 'rally' : o.number !== undefined ? (o.number ? `${o.number}MC` : 'NMC') : undefined,
    o.broken ? 'broken' : undefined,
    o.with_leader ? 'with an unbroken leader' : undefined,
    ifHob(o.enemy_in_los === false ? 'no Known enemy in LOS' : 'Known enemy in LOS'),
    ifHob(o.enemy_adjacent ? 'enemy ADJACENT' : 'no enemy ADJACENT'),
    o.fanatic ? 'Fanatic' : undefined,
    o.sub_type && o.sub_type !== 'none' ? String(o.sub_type).toUpperCase() : undefined,
    ifHob(o.vs_russians ? 'vs Russians' : undefined),
    ifHob(o.no_quarter ? 'No Quarter' : undefined),
    o.elr !== undefined && o.check !== 'rally' ? `ELR ${o.elr}` : undefined,
    o.terrain && o.terrain !== 'none' ? `in ${o.terrain}` : undefined,
    o.self_rally && o.self_rally !== 'no' ? `Self-Rally (${o.self_rally})` : undefined,
    o.commissar === 'in_location' ? 'Commissar in the Location' : o.commissar === 'leads_rally' ? 'led by a Commissar' : undefined,
    ifHob(o.situation && o.situation !== 'none' ? String(o.situation).replace(/_/g, ' ') : undefined),
  ]
    .filter(Boolean)
    .join(' · ');
}

/** The reply for a stored /hob or /mc roll, with any decisions taken on it since. */
export function storedAslEmbed(
  row: { id: string; hash: string; command: string; unit: string | null; user_name: string; input: unknown; outcome: unknown },
  decisions: { finding: Finding; rollId: string }[] = [],
): APIEmbed {
  const input = row.input as Record<string, unknown>;
  const outcome = row.outcome as { steps: AslStep[]; tone: Tone; odds?: { exactly: string; or_better: string } };
  const check = row.command === 'hob' ? 'Heat of Battle' : input.check === 'rally' ? 'Rally' : 'Morale Check';
  return aslEmbed({
    title: `${check} · ${userText(row.unit ?? String(input.unit))}`,
    userName: row.user_name,
    description: describeSituation(input, row.command === 'hob' || outcome.steps.some((s) => s.kind === 'hob')),
    steps: outcome.steps,
    tone: outcome.tone,
    odds: outcome.odds,
    row,
    decisions,
  });
}
