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
