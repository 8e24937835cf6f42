import { MAX_DISORDER } from './rally.js';
import type { RallyResult } from './rally.js';

/** The roster field a unit carries while its rout waits on the commander re-roll: the rally's roll id. */
export const PENDING_ROUT = 'pending_rout';

/** What a rally does to a roster unit; undefined when nothing lasting changed. */
export type HotRosterChange = { fields?: Record<string, unknown>; remove?: true; why: string };

/**
 * What a rally result does to a roster unit: disorder cleared, or the unit gone. A first-roll rout
 * that offers the commander re-roll is pending (`pendingAs`, the roll's id): the unit keeps it until
 * the offer is taken or lapses. A re-roll settles what was pending (`wasPending`).
 */
export function rallyRosterChange(result: RallyResult, pendingAs: string | undefined, wasPending: boolean): HotRosterChange | undefined {
  // Only a rout still pending is settled; a unit whose offer was settled before carries nothing to clear.
  const settles = wasPending ? { [PENDING_ROUT]: null } : {};
  if (result === 'huzzah' || result === 'rally') return { fields: { disorder: 0, ...settles }, why: 'Rallied: all disorder removed' };
  if (result === 'rout' && pendingAs)
    return {
      fields: { [PENDING_ROUT]: pendingAs },
      why: 'Routed on the first roll: the commander re-roll is offered until the end of the turn; untaken, the rout stands',
    };
  if (result === 'rout_commander_lost' || result === 'rout') return { remove: true, why: 'Routed: off the field' };
  return wasPending ? { fields: settles, why: 'The commander re-roll settled it: it stays disordered' } : undefined;
}

/** What a roster unit keeps of its disorder and this turn's losses (reports in one turn add up). */
export type HotUnitFields = { disorder: number; strength: number; turn_marked?: boolean };

/** One disorder report, as the rules found it: the markers gained, why, and whether the unit is gone. */
export type DisorderFound = { result: string; markers: number; causes: string[] };

/**
 * What a disorder report does to a roster unit: gone when its strength is spent, else its markers
 * (up to the sanity bound) and strength, and this turn's running losses (`turn` the game's turn,
 * `turnStrength` its strength when the turn began, `lostEarlier` what earlier reports lost).
 */
export function disorderRosterChange(
  f: HotUnitFields,
  found: DisorderFound,
  report: { lost: number; turn: number | null; turnStrength: number; lostEarlier: number; sameTurn: boolean },
): HotRosterChange | undefined {
  if (found.result === 'gone') return { remove: true, why: 'All its strength lost: gone from the field' };
  if (!found.markers && !report.lost) return undefined;
  const heavy = found.causes.some((c) => c.startsWith('lost 25%'));
  return {
    fields: {
      disorder: Math.min(MAX_DISORDER, f.disorder + found.markers),
      strength: f.strength - report.lost,
      turn_of: report.turn,
      turn_strength: report.turnStrength,
      turn_lost: report.lostEarlier + report.lost,
      turn_marked: Boolean(report.sameTurn && f.turn_marked) || heavy,
    },
    why: `${found.markers} disorder marker${found.markers === 1 ? '' : 's'} gained, ${report.lost} lost`,
  };
}

/** A unit of a shaken brigade at the turn's end: one more disorder marker (up to the bound), marked shaken. */
export const shakenBrigadeChange = (disorder: number, why: string): HotRosterChange => ({
  fields: { disorder: Math.min(MAX_DISORDER, disorder + 1), brigade_shaken: true },
  why,
});
