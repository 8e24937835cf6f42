import type { LwState } from './morale-table.js';
import type { MoraleResult } from './morale.js';

/** What a Lightning War roster unit keeps between checks (the fields the check reads and changes). */
export type LwUnitFields = { casualties: number; original: number; state?: LwState };

/** What a check does to a roster unit; undefined when nothing lasting changed. */
export type LwRosterChange = { fields?: Record<string, unknown>; remove?: true; why: string };

/**
 * What a check does to a roster unit: gone, retreating, routing, rallied; and the casualties the
 * player reported with it (`reported`), when they differ from the roster's.
 */
export function moraleRosterChange(f: LwUnitFields, result: MoraleResult, reported: number | undefined): LwRosterChange | undefined {
  if (result === 'eliminated' || result === 'surrender') return { remove: true, why: result === 'eliminated' ? 'Eliminated' : 'Surrendered' };
  const state: LwState | undefined = result === 'rout' ? 'routing' : result === 'retreat' ? 'retreating' : result === 'rallied' ? 'steady' : undefined;
  const fields: Record<string, unknown> = {};
  if (state && state !== (f.state ?? 'steady')) fields.state = state;
  if (reported !== undefined && reported !== f.casualties) fields.casualties = reported;
  if (!Object.keys(fields).length) return undefined;
  const why = [
    state === 'steady' ? 'Rallied' : state ? `Now ${state}` : '',
    fields.casualties !== undefined ? `casualties ${String(fields.casualties)}/${f.original}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  return { fields, why };
}
