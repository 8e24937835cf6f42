import type { Roller } from '../../dice/roller.js';
import { enumerate, inputKey, remembered } from '../odds.js';
import { applied, bandFor, sum, type Modifier, type Outcome, type Says, type Step } from '../types.js';
import {
  BASE_MORALE,
  CASUALTY_BANDS,
  COMMANDER_RANGE_M,
  COVER_MODIFIER,
  LW_REF,
  MORALE_TABLE,
  PINNED_ARMOR_EFFECT,
  RALLIED,
  RALLY_FAILED,
  STATUS_MODIFIERS,
  SURRENDER,
  type CheckReason,
  type Cover,
  type MoraleCode,
  type MoraleLevel,
  type UnitType,
} from './morale-table.js';
import { said, type Said } from '../../i18n/said.js';
import { because, worded } from '../words.js';

export type Casualties = { lost: number; original: number };

export type MoraleInput = {
  morale: MoraleLevel;
  casualties: Casualties | undefined;
  cover: Cover;
  unitType: UnitType;
  immobilized: boolean;
  nearKill: boolean;
  reserveMove: boolean;
  /** A qualifying commander is visible within range (100 m infantry, 250 m vehicles). */
  commander: boolean;
  rally: boolean;
  /** A visible enemy unit within 100 m: a rout becomes a surrender. */
  enemyWithin100m: boolean;
  reason: CheckReason | undefined;
  /**
   * The unit's state before the roll: retreating or routing (steady when absent). A rally's unit is
   * one of the two; on a check, a new result never improves it.
   */
  state?: 'retreating' | 'routing' | undefined;
};

export type MoraleResult = MoraleCode | 'surrender' | 'rallied' | 'rally_failed';

export type MoraleStep = Step & {
  kind: 'morale' | 'rally';
  result: MoraleResult;
  /** The table row the Final landed on, before surrender or rally readings. */
  table_result: MoraleCode;
};

export type MoraleOutcome = Outcome<MoraleStep> & { result: MoraleResult };

/** Reads `lost/original` ("2/5"); returns the reason it cannot be read otherwise. */
export function parseCasualties(text: string): Casualties | Said {
  const m = /^\s*(-?\d+)\s*\/\s*(-?\d+)\s*$/.exec(text);
  if (!m) return said('casualtiesFormat');
  const lost = Number(m[1]);
  const original = Number(m[2]);
  if (original < 1) return said('casualtiesOriginal');
  if (lost < 0) return said('casualtiesNegative');
  if (lost > original) return said('casualtiesOverOriginal');
  return { lost, original };
}

/** The casualty modifier, by exact integer comparison of lost/original with the fifths. */
export function casualtyModifier(c: Casualties): Modifier | undefined {
  const band = CASUALTY_BANDS.find((b) => 5 * c.lost > b.aboveFifths * c.original && 5 * c.lost <= b.upToFifths * c.original);
  return band && because(said('lw.mod.casualties', { band: String(band.band), lost: String(c.lost), original: String(c.original) }), band.value);
}

export function moraleModifiers(input: MoraleInput): Modifier[] {
  const s = STATUS_MODIFIERS;
  const mods: (Modifier | undefined)[] = [
    because(said('lw.mod.morale', { level: input.morale }), BASE_MORALE[input.morale]),
    input.casualties && casualtyModifier(input.casualties),
    because(said('lw.mod.cover', { cover: input.cover }), COVER_MODIFIER[input.cover]),
    input.immobilized ? because(said('lw.mod.immobilized'), s.immobilized.value) : undefined,
    input.nearKill ? because(said('lw.mod.nearKill'), s.nearKill.value) : undefined,
    input.reserveMove ? because(said('lw.mod.reserveMove'), s.reserveMove.value) : undefined,
    input.commander ? because(said('lw.mod.commander', { m: String(COMMANDER_RANGE_M[input.unitType]) }), s.commander.value) : undefined,
    input.rally ? because(said('lw.mod.rally'), s.rally.value) : undefined,
  ];
  return applied(mods.filter((m): m is Modifier => m !== undefined));
}

/** The table row that stands for a state: a routing unit reads as a rout, a retreating one as a retreat. */
const STATE_ROW = { routing: 'rout', retreating: 'retreat' } as const;
/** Whether table result `a` is worse for the unit than `b` (MORALE_ORDER, best to worst). */
const worseThan = (a: MoraleCode, b: MoraleCode) => MORALE_ORDER.indexOf(a) > MORALE_ORDER.indexOf(b);

/** A check that would improve a retreating or routing unit: the worse, its state, stands (decided in the spec). */
function stateStands(state: 'retreating' | 'routing', row: { code: MoraleCode }) {
  const base = MORALE_TABLE.find((b) => b.code === STATE_ROW[state])!;
  const still = state === 'routing' ? 'stillRouting' : 'stillRetreating';
  return { ...base, ...worded(said(`lw.${still}.label`), said(`lw.${still}.effect`, { read: tableRead(row), effect: base.says.effect })) };
}

/** The row the table gave, named inside a sentence. */
const tableRead = (row: { code: MoraleCode }) => said('lw.tableRead', { code: row.code });

/** A reading of the table with another effect than its own. */
const readAs = (r: { code: MoraleResult; tone: Step['tone']; says: Says }, effect: Said): Reading => ({
  code: r.code,
  tone: r.tone,
  ...worded(r.says.label, effect),
});
type Reading = { code: MoraleResult; label: string; tone: Step['tone']; effect: string; says: Says };

/** A morale check or rally attempt: 3d6 + modifiers on the morale table. */
export function moraleCheck(input: MoraleInput, roller: Roller): MoraleOutcome {
  const dice = [roller.roll(6), roller.roll(6), roller.roll(6)];
  const original = sum(dice);
  const modifiers = moraleModifiers(input);
  const final = original + sum(modifiers.map((m) => m.value));
  const row = bandFor(MORALE_TABLE, final);
  let reading: Reading = row;
  const read = tableRead(row);
  if (input.rally) {
    // A rally only succeeds on firm; anything else leaves the unit as it was — except that a unit
    // still routing surrenders to a visible enemy within 100 m.
    if (row.code === 'firm') reading = RALLIED;
    else if (input.state === 'routing' && input.enemyWithin100m) reading = readAs(SURRENDER, said('lw.rallySurrender', { read }));
    else reading = readAs(RALLY_FAILED, said('lw.rallyFailedRead', { effect: RALLY_FAILED.says.effect, read }));
  } else if ((row.code === 'rout' || input.state === 'routing') && input.enemyWithin100m) {
    // "Already routing" counts on every check: a routing unit surrenders whatever the new result.
    reading = row.code === 'rout' ? SURRENDER : readAs(SURRENDER, said('lw.routingSurrender', { read }));
  } else if (input.state && worseThan(STATE_ROW[input.state], row.code)) {
    reading = stateStands(input.state, row);
  } else if (row.code === 'pinned' && input.unitType === 'armored_vehicle') {
    reading = { ...readAs(row, PINNED_ARMOR_EFFECT), tone: 'neutral' };
  }
  const step: MoraleStep = {
    kind: input.rally ? 'rally' : 'morale',
    dice,
    original,
    modifiers,
    final,
    result: reading.code,
    table_result: row.code,
    label: reading.label,
    effect: reading.effect,
    says: reading.says,
    tone: reading.tone,
    ref: LW_REF,
  };
  return { system: 'lightning-war', steps: [step], result: step.result, tone: step.tone };
}

/** Results from best to worst, for "this result or better". */
export const MORALE_ORDER = ['rallied', 'firm', 'pinned', 'suppressed', 'fall_back', 'retreat', 'rally_failed', 'rout', 'surrender', 'eliminated'] as const;

export const moraleDistribution = (input: MoraleInput) =>
  remembered(inputKey('morale', input), () =>
    enumerate(
      (dice) => moraleCheck(input, dice),
      (o) => o.result,
    ),
  );
