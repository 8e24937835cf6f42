import { capitalized, withArticle } from '../../src/util/text.js';
import { boolean, choice, integer, text, type OptionSpec } from '../../src/core/options.js';
import { refuse } from '../../src/core/user-error.js';
import { parseUnit } from '../../src/rules/asl/parse-unit.js';
import { ASL_FIELD_DEFAULTS } from '../../src/rules/asl/roster.js';
import { MAX_DISORDER, QUALITIES } from '../../src/rules/hearts-of-tin/rally.js';
import { LW_STATES, MORALE_LEVELS, UNIT_TYPES } from '../../src/rules/lightning-war/morale-table.js';
import { MODES, STATUSES } from '../../src/rules/wacht-am-rhein/fatigue.js';
import { quoted } from '../../src/render/embed.js';
import type { SystemId } from '../../src/rules/systems.js';

/** The roster fields of each system, as /unit options, with what is required and what is checked. */

const STRENGTH_MAX = 100_000;

export const FIELD_OPTIONS = {
  // ASL
  counter: text({ description: 'ASL: the counter, e.g. German 4-6-7', maxLength: 60 }),
  broken: boolean({ description: 'ASL: broken' }),
  berserk: boolean({ description: 'ASL: berserk' }),
  fanatic: boolean({ description: 'ASL: Fanatic' }),
  heroic: boolean({ description: 'ASL: a heroic leader' }),
  wounded: boolean({ description: 'ASL: a wounded leader or hero' }),
  // Hearts of Tin
  quality: choice({ description: 'Hearts of Tin: quality', choices: QUALITIES }),
  band: boolean({ description: 'Hearts of Tin: joined by a band' }),
  brigade: text({ description: 'Hearts of Tin: its brigade', maxLength: 60 }),
  original: integer({ description: 'Hearts of Tin / Lightning War: original strength', min: 1, max: STRENGTH_MAX }),
  strength: integer({ description: 'Hearts of Tin: current strength', min: 0, max: STRENGTH_MAX }),
  disorder: integer({ description: 'Hearts of Tin: disorder markers', min: 0, max: MAX_DISORDER }),
  // Lightning War
  morale: choice({ description: 'Lightning War: base morale', choices: MORALE_LEVELS }),
  casualties: integer({ description: 'Lightning War: casualties so far', min: 0, max: STRENGTH_MAX }),
  unit_type: choice({ description: 'Lightning War: unit type', choices: UNIT_TYPES }),
  // Wacht am Rhein
  attack: integer({ description: 'Wacht am Rhein: attack strength', min: 0, max: 99 }),
  defense: integer({ description: 'Wacht am Rhein: defense strength', min: 0, max: 99 }),
  movement: integer({ description: 'Wacht am Rhein: movement allowance', min: 0, max: 99 }),
  mode: choice({ description: 'Wacht am Rhein: mode', choices: MODES }),
  fatigue: choice({ description: 'Wacht am Rhein: fatigue status', choices: STATUSES }),
  // Lightning War: what the last check left it doing (a rally takes it from here).
  state: choice({ description: 'Lightning War: steady, retreating or routing', choices: LW_STATES }),
} satisfies Record<string, OptionSpec<unknown>>;

export type FieldName = keyof typeof FIELD_OPTIONS;
type Fields = Partial<Record<FieldName, unknown>>;

type SystemFields = {
  name: string;
  fields: FieldName[];
  required: FieldName[];
  defaults: (f: Fields) => Fields;
  /** Cross-field checks and normalising (the ASL counter is read into its data name). */
  check: (f: Fields) => Fields;
  /** Refuses a change the rules forbid from one state to the next (`before` undefined for a new unit). */
  entering?: (before: Fields | undefined, after: Fields) => void;
};

// One entry per built-in system (the compiler holds it to the list); a rule pack's units take `fields:`.
export const SYSTEM_FIELDS: Record<SystemId, SystemFields> = {
  asl: {
    name: 'ASL',
    // Disrupted is set by rolls and cleared with broken:false (Discord allows 25 options a command).
    fields: ['counter', 'broken', 'berserk', 'fanatic', 'heroic', 'wounded'],
    required: ['counter'],
    defaults: () => ({ ...ASL_FIELD_DEFAULTS }),
    check: (f) => {
      const u = parseUnit(String(f.counter));
      if (typeof u === 'string') refuse(`\`counter\` ${quoted(f.counter)}: ${u}.`);
      if (f.heroic && u.kind !== 'leader') refuse('`heroic` is for a leader.');
      if (f.wounded && u.kind !== 'leader' && u.kind !== 'hero') refuse('`wounded` is for a leader or hero (A17).');
      return { ...f, counter: u.name, ...(f.broken === false ? { disrupted: false } : {}) };
    },
  },
  'hearts-of-tin': {
    name: 'Hearts of Tin',
    fields: ['quality', 'band', 'brigade', 'original', 'strength', 'disorder'],
    required: ['original'],
    defaults: (f) => ({ quality: 'regular', band: false, brigade: null, disorder: 0, strength: f.original }),
    check: (f) => (Number(f.strength) > Number(f.original) ? refuse(`\`strength\` (${f.strength}) cannot be more than \`original\` (${f.original}).`) : f),
  },
  'lightning-war': {
    name: 'Lightning War',
    fields: ['morale', 'original', 'casualties', 'unit_type', 'state'],
    required: ['morale', 'original'],
    defaults: () => ({ casualties: 0, unit_type: 'infantry', state: 'steady' }),
    check: (f) =>
      Number(f.casualties) > Number(f.original) ? refuse(`\`casualties\` (${f.casualties}) cannot be more than \`original\` (${f.original}).`) : f,
  },
  'wacht-am-rhein': {
    name: 'Wacht am Rhein',
    // The MR exemption is armed only by the left_maneuver_reserve event (13.1.3), never by hand.
    fields: ['attack', 'defense', 'movement', 'mode', 'fatigue'],
    required: ['attack', 'defense', 'movement'],
    defaults: () => ({ mode: 'tactical', fatigue: 'normal', mr_exemption: false }),
    check: (f) => f,
    // 13.1.1: a resting or fatigued unit may not enter PA or Combat Reserve mode (one already in it may stay).
    entering: (before, after) => {
      const restricted = ['prepared_assault', 'combat_reserve'];
      if (!restricted.includes(String(after.mode)) || after.fatigue === 'normal' || before?.mode === after.mode) return;
      refuse(
        `${capitalized(withArticle(String(after.fatigue)))} unit may not enter ${after.mode === 'prepared_assault' ? 'Prepared Assault' : 'Combat Reserve'} mode (13.1.1).`,
      );
    },
  },
};

/** The fields given for this system; an option of another system is refused by name. */
/** A built-in system's roster fields; none for a rule pack's game. */
const fieldsOfSystem = (system: string): SystemFields | undefined => (SYSTEM_FIELDS as Partial<Record<string, SystemFields>>)[system];

export function fieldsFor(system: string, given: Fields): Fields {
  const spec = fieldsOfSystem(system);
  if (!spec) {
    // A rule pack game: its units take the pack's fields in one option, and change through its rolls.
    const named = Object.entries(given).filter(([, v]) => v !== undefined);
    if (named.length)
      refuse(
        `\`${named[0]![0]}\` is not a field of a rule pack game's units: give theirs with /unit add fields:, like nerve:7 pins:0; they change through the pack's rolls.`,
      );
    return {};
  }
  const out: Fields = {};
  for (const [k, v] of Object.entries(given)) {
    if (v === undefined) continue;
    if (!spec.fields.includes(k as FieldName)) {
      const owner = Object.values(SYSTEM_FIELDS).find((s) => s.fields.includes(k as FieldName));
      refuse(
        `\`${k}\` is ${owner ? `${withArticle(owner.name)} field` : 'not a unit field'}; this is ${withArticle(spec.name)} game (its fields: ${spec.fields.join(', ')}).`,
      );
    }
    out[k as FieldName] = v;
  }
  return out;
}

/** A complete, checked set of fields for a new unit; anything missing or forbidden is refused. */
export function newUnitFields(system: string, given: Fields): Fields {
  const f = fieldsFor(system, given);
  const spec = fieldsOfSystem(system)!;
  const missing = spec.required.filter((k) => f[k] === undefined);
  if (missing.length) refuse(`${capitalized(withArticle(spec.name))} unit needs ${missing.map((k) => `\`${k}\``).join(' and ')}.`);
  const next = { ...spec.defaults(f), ...f };
  spec.entering?.(undefined, next);
  return spec.check(next);
}

/** The unit's fields after an edit, checked as a whole; a forbidden change is refused. */
export function editedFields(system: string, current: Fields, given: Fields): Fields {
  const f = fieldsFor(system, given);
  const spec = fieldsOfSystem(system);
  if (!spec) return current;
  const next = { ...current, ...f };
  spec.entering?.(current, next);
  return spec.check(next);
}
