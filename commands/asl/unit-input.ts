import type { Context } from '../../src/core/command.js';
import type { Scope } from '../../src/core/games.js';
import { refuse } from '../../src/core/user-error.js';
import type { RosterEffect } from '../../src/core/roll.js';
import { preferGiven, trackedUnit, type Tracked } from '../../src/core/roster-unit.js';
import { ASL_FIELD_DEFAULTS, aslRosterChange, type AslFields } from '../../src/rules/asl/roster.js';
import { boolean, choice, text, type ParsedOptions } from '../../src/core/options.js';
import { catalog, CLASSES } from '../../src/rules/asl/catalog.js';
import { HOB_STATUS_CODES, hobExemption, situationConflict, SUB_TYPES, subTypeConflict, type HobInput } from '../../src/rules/asl/hob.js';
import { SPECIAL_SITUATION_CODES } from '../../src/rules/asl/hob-table.js';
import { parseUnit, suggestUnits, type AslUnit } from '../../src/rules/asl/parse-unit.js';
import { quoted, userText } from '../../src/render/embed.js';
import { isSaid, option } from '../../src/i18n/said.js';

/** Options /hob and /mc share: the unit and what Heat of Battle needs to know about it. */

const NATIONALITY_KEYS = [...catalog().nationalities.keys()] as [string, ...string[]];

/** `autocomplete`: the list offered as typed, where listing it would pass a command's size limit (/odds). */
export function nationalityOption(autocomplete: boolean) {
  return choice({ description: 'Nationality, if the unit names none', choices: NATIONALITY_KEYS, autocomplete });
}

export function classOption(autocomplete: boolean) {
  return choice({ description: 'Class, for a unit not in the data', choices: CLASSES, autocomplete });
}

export const unitOptions = {
  unit: text({ description: 'The ASL unit, e.g. German 4-6-7, ge 467, British 8-1', maxLength: 60, autocomplete: true, required: true }),
  nationality: nationalityOption(false),
  class: classOption(false),
};

export const hobOptions = {
  with_leader: boolean({ description: 'With an unbroken leader (a Green MMC is then not inexperienced)', default: false }),
  enemy_in_los: boolean({ description: 'A Known enemy unit is in its LOS (default true)', default: true }),
  enemy_adjacent: boolean({ description: 'A Known, Good Order, armed enemy is ADJACENT', default: false }),
  fanatic: boolean({ description: 'The unit is Fanatic', default: false }),
  sub_type: choice({ description: 'Sub-type (default none)', choices: SUB_TYPES, default: 'none' }),
  vs_russians: boolean({ description: 'SS fighting Russians', default: false }),
  no_quarter: boolean({ description: 'No Quarter in effect', default: false }),
  status: choice({ description: 'A status exempt from Heat of Battle (default none)', choices: HOB_STATUS_CODES, default: 'none' }),
  situation: choice({
    description: 'A15.1 note: Berserk/Surrender becomes Battle Hardening',
    choices: SPECIAL_SITUATION_CODES,
    default: 'none',
  }),
  companions: text({ description: 'Units with a leader who may go berserk: "German 4-6-7, broken German 4-4-7"', maxLength: 200 }),
};

type UnitOpts = ParsedOptions<typeof unitOptions>;
type HobOpts = ParsedOptions<typeof hobOptions>;

export const MAX_COMPANIONS = 3;

/** What a tracked ASL unit keeps on the roster. */
export type TrackedAsl = Tracked & { fields: AslFields };

/**
 * The unit the options describe — a roster unit of this channel's ASL game by its name, or a unit
 * as players write it; a unit that cannot be read is refused, naming `unit`.
 */
export async function readUnit(
  scope: Scope,
  ctx: Context,
  o: UnitOpts & { sub_type: string; situation?: string },
  purpose: 'write' | 'read' = 'write',
): Promise<{ unit: AslUnit; tracked?: TrackedAsl }> {
  const tracked = await trackedUnit(scope, ctx, o.unit, purpose);
  const text = tracked ? String(tracked.unit.fields.counter) : o.unit;
  // A sub-type given as an option picks its unit the way the word would ("German 2-3-7" + VG).
  const unit = parseUnit(text, { nationality: o.nationality, class: o.class, ...(o.sub_type !== 'none' ? { tag: o.sub_type } : {}) });
  if (isSaid(unit)) refuse('unitUnreadable', { unit: option('unit'), given: quoted(o.unit), why: unit });
  const conflict = subTypeConflict(unit, o.sub_type as HobInput['subType']) ?? situationConflict(unit, o.situation as HobInput['situation']);
  if (conflict) refuse('sentence', { what: conflict });
  // A roster unit keeps its counter's name in the rules (substitutions read "German 4-6-7 → …");
  // the reply's title and the ledger's unit column carry the roster name.
  return tracked ? { unit, tracked: { ...tracked, fields: { ...ASL_FIELD_DEFAULTS, ...(tracked.unit.fields as Partial<AslFields>) } as AslFields } } : { unit };
}

/** A roster unit's lasting state as option defaults (explicit options win). */
export function rosterDefaults<T extends Record<string, unknown>>(ctx: Context, o: T, tracked: TrackedAsl | undefined): T {
  if (!tracked) return o;
  const f = tracked.fields;
  return preferGiven(ctx, o, {
    broken: f.broken,
    fanatic: f.fanatic,
    wounded: f.wounded,
    ...(f.berserk ? { status: 'berserk' } : {}),
  } as unknown as Partial<T>);
}

/** What the roll does to a tracked unit, as data for the roll's transaction. */
export function aslEffects(tracked: TrackedAsl | undefined, steps: { kind: string }[]): RosterEffect[] {
  const change = tracked && aslRosterChange(tracked.fields, steps);
  return tracked && change ? [{ tracked, change }] : [];
}

/** "German 4-6-7, broken German 4-4-7" → the companions; an unreadable one is refused, naming `companions`. */
export function readCompanions(textValue: string | undefined, nationality: string): { unit: AslUnit; broken: boolean }[] {
  if (!textValue) return [];
  const parts = textValue
    .split(/[,;]/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length > MAX_COMPANIONS) refuse('tooManyCompanions', { companions: option('companions'), max: MAX_COMPANIONS, n: parts.length });
  const out: { unit: AslUnit; broken: boolean }[] = [];
  for (const p of parts) {
    // "[broken] Guards 6-2-8 [ml:8]": a companion the data does not know carries its ML.
    const [, broken, text, given] = /^(broken\s+)?(.*?)(?:\s+ml:\s*(\d+))?$/i.exec(p)!;
    const ml = given === undefined ? undefined : Number(given);
    if (ml !== undefined && (ml < 1 || ml > 10)) refuse('companionMl', { companions: option('companions'), given: quoted(p) });
    // An ML given stands for the unit's: an unknown counter of a known nationality needs no class then.
    const parsed = parseUnit(text!, { nationality, ml });
    if (isSaid(parsed)) refuse('companionUnreadable', { companions: option('companions'), given: quoted(p), why: parsed });
    const unit = ml !== undefined ? { ...parsed, ml, brokenMl: ml } : parsed;
    // A crew (or any unit HoB never touches) takes no NTC, so its ML is never used (A15.1).
    const exempt = hobExemption({ unit, status: 'none' });
    if (!exempt && (broken ? unit.brokenMl : unit.ml) === undefined)
      refuse('companionNoMl', { companions: option('companions'), given: quoted(p), text: userText(text!) });
    out.push({ unit, broken: broken !== undefined });
  }
  return out;
}

export function hobSituation(o: Omit<HobOpts, 'with_leader'> & { with_leader?: boolean }): Omit<HobInput, 'unit' | 'broken'> {
  return {
    withLeader: o.with_leader ?? false,
    enemyInLos: o.enemy_in_los,
    enemyAdjacent: o.enemy_adjacent,
    fanatic: o.fanatic,
    subType: o.sub_type,
    vsRussians: o.vs_russians,
    noQuarter: o.no_quarter,
    status: o.status,
    situation: o.situation,
  };
}

/** Roster units of the channel's ASL game first, then units of the data. */
export async function unitChoices(ctx: Context, option: string, value: string) {
  if (option !== 'unit') return [];
  const game = await ctx.services.ledger.roster.activeGame(ctx.actor.guildId, ctx.actor.channelId);
  const roster = game?.system === 'asl' ? await ctx.services.ledger.roster.unitNames(game.id, value, 25) : [];
  return [...roster, ...suggestUnits(value)].slice(0, 25).map((u) => ({ name: u, value: u }));
}
