import type { Roller } from '../../dice/roller.js';
import { enumerate, inputKey, remembered } from '../odds.js';
import { applied, bandFor, sum, type Modifier, type Outcome, type Step } from '../types.js';
import { RALLY_CHART, RALLY_MODIFIERS, RALLY_REF, ROUT_COMMANDER_LOST, type RallyCode } from './rally-chart.js';
import { said } from '../../i18n/said.js';
import { because, worded } from '../words.js';

export const QUALITIES = ['regular', 'elite', 'militia', 'irregular'] as const;
export type Quality = (typeof QUALITIES)[number];

export const MIN_DISORDER = 1;
/** A sanity bound, not a rule: markers have no ceiling (one for every cause and every turn end of a shaken brigade); with 9 or more no rally can succeed. */
export const MAX_DISORDER = 30;

export type RallyInput = {
  /** Disorder markers on the unit, 1 to MAX_DISORDER (a unit without disorder does not rally). */
  disorder: number;
  quality: Quality;
  band: boolean;
  /** An enemy is visible within 24"; when false the unit gets +1. */
  enemyInSight: boolean;
  /** A commander within 12" could join if the rally fails. Changes no modifier. */
  commanderNear: boolean;
};

export type RallyResult = RallyCode | typeof ROUT_COMMANDER_LOST.code;

export type RallyStep = Step & {
  kind: 'rally' | 'commander_reroll';
  result: RallyResult;
};

export type RallyOutcome = Outcome<RallyStep> & { result: RallyResult };

/** Results after which the rally counts as failed: the disorder was not removed. */
const FAILED: ReadonlySet<string> = new Set<RallyCode>(['retreat', 'rout']);

export function rallyModifiers(input: RallyInput): Modifier[] {
  const m = RALLY_MODIFIERS;
  const mods: Modifier[] = [];
  if (!input.enemyInSight) mods.push(because(m.noEnemyInSight.reason, m.noEnemyInSight.value));
  const elite = input.quality === 'elite';
  // Elite and a band give one +1 between them, never two.
  if (elite || input.band) {
    const reason = elite && input.band ? said('hot.mod.eliteAndBand') : elite ? said('hot.mod.elite') : said('hot.mod.band');
    mods.push(because(reason, m.eliteOrBand.value));
  }
  // Decided (spec silent): a band's +1 also stands beside militia's −1; only elite shares its +1.
  if (input.quality === 'militia' || input.quality === 'irregular') {
    mods.push(because(said(`hot.mod.${input.quality}`), m.militiaOrIrregular.value));
  }
  mods.push(because(m.extraDisorder.reason, m.extraDisorder.value * (input.disorder - 1)));
  return applied(mods);
}

function rallyStep(input: RallyInput, roller: Roller, kind: RallyStep['kind']): RallyStep {
  const die = roller.roll(6);
  const modifiers = rallyModifiers(input);
  const final = die + sum(modifiers.map((x) => x.value));
  const row = bandFor(RALLY_CHART, final);
  // On the commander's re-roll a rout takes the commander with it.
  const lost = kind === 'commander_reroll' && row.code === 'rout';
  // A first-roll rout with the commander's re-roll on offer is not final yet; a retreat keeps its disorder.
  const pending = kind === 'rally' && row.code === 'rout' && input.commanderNear;
  const read = lost ? ROUT_COMMANDER_LOST : row;
  const effect = pending ? said('hot.routPending') : row.code === 'retreat' ? said('hot.retreatAgain', { effect: read.says.effect }) : read.says.effect;
  return {
    kind,
    dice: [die],
    original: die,
    modifiers,
    final,
    result: lost ? ROUT_COMMANDER_LOST.code : row.code,
    ...worded(read.says.label, effect),
    tone: row.tone,
    ref: RALLY_REF,
  };
}

function outcomeOf(step: RallyStep): RallyOutcome {
  return { system: 'hearts-of-tin', steps: [step], result: step.result, tone: step.tone };
}

/** A rally roll: 1d6 plus modifiers, read on the rally chart. */
export function rally(input: RallyInput, roller: Roller): RallyOutcome {
  return outcomeOf(rallyStep(input, roller, 'rally'));
}

/** Whether the rules offer the commander's re-roll after this result. */
export function commanderMayRejoin(input: RallyInput, result: string): boolean {
  return input.commanderNear && FAILED.has(result);
}

/** The commander joins a unit whose rally failed: one more roll with the same modifiers, which replaces the first. */
export function commanderReroll(input: RallyInput, firstResult: string, roller: Roller): RallyOutcome {
  if (!commanderMayRejoin(input, firstResult)) {
    throw new Error(`no commander re-roll after ${firstResult}${input.commanderNear ? '' : ' without a commander near'}`);
  }
  return outcomeOf(rallyStep(input, roller, 'commander_reroll'));
}

/** Results from best to worst, for "this result or better". */
export const RALLY_ORDER = ['huzzah', 'rally', 'retreat', 'rout', 'rout_commander_lost'] as const;

/**
 * Exact distribution of a rally's result. With `takeReroll`, the commander re-roll is taken
 * whenever the rules offer it, and its result is the one that stands.
 */
export function rallyDistribution(input: RallyInput, takeReroll = false) {
  return remembered(inputKey(`rally:${takeReroll}`, input), () =>
    enumerate(
      (dice) => {
        const first = rally(input, dice);
        return takeReroll && commanderMayRejoin(input, first.result) ? commanderReroll(input, first.result, dice) : first;
      },
      (o) => o.result,
    ),
  );
}

/** Exact distribution of the commander's re-roll on its own. */
export const rerollDistribution = (input: RallyInput, firstResult: string) =>
  remembered(inputKey(`reroll:${firstResult}`, input), () =>
    enumerate(
      (dice) => commanderReroll(input, firstResult, dice),
      (o) => o.result,
    ),
  );
