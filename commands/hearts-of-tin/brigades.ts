import type { Game, RosterUnit } from '../../src/ledger/roster.js';
import { brigadeLosses } from '../../src/rules/hearts-of-tin/disorder.js';
import type { Reads } from '../../src/core/games.js';

/** Hearts of Tin brigades on a roster: every unit a brigade ever had, removed (routed) ones included. */

const brigadeOf = (u: RosterUnit) => String(u.fields.brigade ?? '').trim();

export async function brigadeUnits(reads: Reads, game: Game, name: string): Promise<{ ever: RosterUnit[]; live: RosterUnit[] }> {
  const key = name.trim().toLowerCase();
  const ever = (await reads.roster.everyUnit(game.id)).filter((u) => brigadeOf(u).toLowerCase() === key);
  return { ever, live: ever.filter((u) => !u.removed_at) };
}

/** Every brigade among a game's units by name (as first written), with its units. */
export function allBrigades(everyUnit: RosterUnit[]): Map<string, RosterUnit[]> {
  const out = new Map<string, RosterUnit[]>();
  const names = new Map<string, string>();
  for (const u of everyUnit) {
    const b = brigadeOf(u);
    if (!b) continue;
    const name = names.get(b.toLowerCase()) ?? b;
    names.set(b.toLowerCase(), name);
    out.set(name, [...(out.get(name) ?? []), u]);
  }
  return out;
}

/**
 * A brigade the roster marked shaken stays shaken. Decision: the
 * mark is made where the game sees the brigade shaken, at /brigade on a roster brigade and at each
 * turn end, so a roster being set up unit by unit never shakes a brigade that is not yet whole.
 */
export const markedShaken = (units: RosterUnit[]) => units.some((u) => u.fields.brigade_shaken === true);

export const lossesOf = (units: RosterUnit[]) =>
  brigadeLosses(units.map((u) => ({ original: Number(u.fields.original), strength: Number(u.fields.strength), removed: Boolean(u.removed_at) })));
