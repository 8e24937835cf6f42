/**
 * The built-in rule systems: the one list. Each entry holds what the rules and the ledger need to
 * know of a system (its name, and the dice of its Original roll, which the dice report counts);
 * everything else about it is its descriptor, beside its commands, which the compiler asks for once
 * its id is here.
 */
export const RULE_SYSTEMS = {
  asl: { name: 'Advanced Squad Leader', originalDice: 2 },
  'hearts-of-tin': { name: 'Hearts of Tin', originalDice: 1 },
  'lightning-war': { name: 'Lightning War', originalDice: 3 },
  // Fatigue rolls no dice.
  'wacht-am-rhein': { name: 'Wacht am Rhein', originalDice: 0 },
} satisfies Record<string, { name: string; originalDice: number }>;

export type SystemId = keyof typeof RULE_SYSTEMS;
export const SYSTEMS = Object.keys(RULE_SYSTEMS) as [SystemId, ...SystemId[]];

export const isSystemId = (id: string): id is SystemId => Object.hasOwn(RULE_SYSTEMS, id);

/** A system's name: a built-in one's, a rule pack's id, or the id itself for one this build does not know (an old ledger row). */
export const systemName = (id: string) => (isSystemId(id) ? RULE_SYSTEMS[id].name : id.startsWith('pack:') ? `${id.slice(5)} (rule pack)` : id);

/** A rule pack's system: `pack:<its id>` (a club's own test, installed in one server). */
export type PackSystemId = `pack:${string}`;
/** Any system a roll or a game can be of: a built-in one, or an installed pack. */
export type AnySystemId = SystemId | PackSystemId;
export const packSystem = (packId: string): PackSystemId => `pack:${packId}`;
