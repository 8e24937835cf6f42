import type { APIEmbed, APIEmbedField } from 'discord.js';
import type { HobStep, NtcStep } from '../rules/asl/hob.js';
import type { CheckStep, WoundStep } from '../rules/asl/mc.js';
import { HOB_BANDS } from '../rules/asl/hob-table.js';
import type { Finding, Tone } from '../rules/types.js';
import { findingField, headlineOf, number, oddsField, resultEmbed, signed, stepFields, userText, worstTone } from './embed.js';
import { CLASS_NAMES, type UnitClass } from '../rules/asl/catalog.js';
import { say, speakingOf } from '../i18n/reader.js';

export type AslStep = CheckStep | WoundStep | HobStep | NtcStep;

const range = (min: number, max: number) => (min === -Infinity ? `≤ ${max}` : max === Infinity ? `≥ ${min}` : `${min}–${max}`);

function notesFor(step: AslStep): string[] {
  if (step.kind === 'hob') {
    const band = HOB_BANDS.find((b) => b.code === step.band)!;
    // The band's name only where an override made the result another (a Berserk band read as Battle Hardening).
    const at = { final: number(step.final), range: range(band.min, band.max) };
    const notes = [band.code === step.result ? say('asl.r.inBand', at) : say('asl.r.band', { ...at, label: say(`asl.hob.${band.code}`) })];
    if (step.trigger) notes.unshift(say('asl.r.triggered', { trigger: TRIGGERS[step.trigger] ?? step.trigger }));
    return notes;
  }
  if (step.kind === 'ntc') return [say('asl.r.ntcFor', { unit: userText(step.unit), ml: String(step.ml) })];
  if (step.kind === 'wound') return [say('asl.r.woundNote')];
  // The effect already says "Final … ≤ ML 7" on a pass; the ML is named only where it does not.
  return step.effect.includes(`ML ${step.ml}`) ? [] : [say('asl.r.against', { ml: String(step.ml) })];
}

/** What chains a Heat of Battle DR, as recorded, by the code its sentence is chosen by. */
const TRIGGERS: Record<string, string> = { 'Original 2 on the Morale Check': 'mc', 'Original 2 on the Rally': 'rally' };

const heading = (kind: AslStep['kind'] | 'berserk' | 'decision') => say('asl.r.heading', { kind });

/** Every step of an ASL check as fields, the coloured die named first. */
export function aslFields(steps: AslStep[], decisions: Finding[] = []): APIEmbedField[] {
  const many = steps.length > 1;
  const fields = steps.flatMap((s) => {
    const named = many ? heading(s.kind) : undefined;
    // A Commissar's companions go berserk with no roll (A25.223): a result, no dice.
    if (!s.dice.length) return [findingField(s, { heading: s.kind === 'ntc' ? heading('berserk') : named })];
    // An ASL DR: the coloured die first, then the white.
    return stepFields(s, { heading: named, notes: notesFor(s), ...(s.dice.length === 2 ? { diceLabels: [say('dieColoured'), say('dieWhite')] } : {}) });
  });
  for (const d of decisions) fields.push(findingField(d, { heading: heading('decision') }));
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
  // The unit is named in the title, and its counter leads the situation: its words agree with it.
  return speakingOf(`${a.title.split(' · ').slice(1).join(' · ')} ${a.description}`, () => drawAsl(a));
}

function drawAsl(a: Parameters<typeof aslEmbed>[0]): APIEmbed {
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
      ...(a.odds ? [oddsField(a.odds, a.steps.length > 1 ? heading(a.steps[0]!.kind) : undefined)] : []),
    ],
    rollId: a.row.id,
    hash: a.row.hash,
    footerExtra: a.decisions?.length ? say('asl.r.footerDecision', { ids: a.decisions.map((d) => d.rollId).join(', ') }) : undefined,
  });
}

/** A check's title: what was rolled, for which unit (its roster name, else the unit as read). */
export const aslTitle = (kind: 'mc' | 'rally' | 'hob', unit: string) => `${heading(kind)} · ${userText(unit)}`;

/**
 * The situation as one line, from the stored options, so a player can check what the DRMs rest on:
 * one line for a roll and for its odds, so neither can leave out an input. The conditions only Heat
 * of Battle reads are listed only where a HoB DR was rolled (or is in the odds). `whole`: also what
 * a roll's own fields name (its ML note and its modifiers), for the odds, which have no dice to show.
 */
export function describeSituation(o: Record<string, unknown>, hob = true, whole = false): string {
  const ifHob = (s: string | undefined) => (hob ? s : undefined);
  const ifWhole = (s: string | undefined) => (whole ? s : undefined);
  const part = (p: string) => say('asl.r.situation', { part: p });
  const chosen = (v: unknown) => Boolean(v) && v !== 'none' && v !== 'no';
  return [
    o.counter ? String(o.counter) : undefined,
    o.class ? CLASS_NAMES[o.class as UnitClass] : undefined,
    o.check === 'rally' ? part('rally') : o.number !== undefined ? (o.number ? `${o.number}MC` : part('nmc')) : undefined,
    o.broken ? part('broken') : undefined,
    chosen(o.status) ? say('asl.r.status', { status: String(o.status) }) : undefined,
    o.with_leader ? part('leader') : undefined,
    ifWhole(o.ml !== undefined ? `ML ${o.ml}` : undefined),
    ifWhole(o.leader_drm !== undefined ? say('asl.r.leaderDrm', { drm: signed(Number(o.leader_drm)) }) : undefined),
    ifWhole(o.wounded ? part('wounded') : undefined),
    o.ift === false ? part('notIft') : undefined,
    ifHob(part(o.enemy_in_los === false ? 'noLos' : 'los')),
    ifHob(part(o.enemy_adjacent ? 'adjacent' : 'notAdjacent')),
    o.fanatic ? part('fanatic') : undefined,
    chosen(o.sub_type) ? String(o.sub_type).toUpperCase() : undefined,
    ifHob(o.vs_russians ? part('vsRussians') : undefined),
    ifHob(o.no_quarter ? part('noQuarter') : undefined),
    o.elr !== undefined && o.check !== 'rally' ? `ELR ${o.elr}` : undefined,
    chosen(o.terrain) ? say('asl.r.terrain', { terrain: String(o.terrain) }) : undefined,
    ifWhole(o.desperation ? part('desperation') : undefined),
    chosen(o.self_rally) ? say('asl.r.selfRally', { how: String(o.self_rally) }) : undefined,
    o.commissar === 'in_location' ? part('commissarHere') : o.commissar === 'leads_rally' ? part('commissarLeads') : undefined,
    ifHob(chosen(o.situation) ? say('asl.situation', { situation: String(o.situation) }) : undefined),
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
  return aslEmbed({
    title: aslTitle(row.command === 'hob' ? 'hob' : input.check === 'rally' ? 'rally' : 'mc', row.unit ?? String(input.unit)),
    userName: row.user_name,
    description: describeSituation(input, row.command === 'hob' || outcome.steps.some((s) => s.kind === 'hob')),
    steps: outcome.steps,
    tone: outcome.tone,
    odds: outcome.odds,
    row,
    decisions,
  });
}
