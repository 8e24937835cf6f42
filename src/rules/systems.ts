/**
 * The built-in rule systems: the one list. Each entry holds what the rules and the ledger need to
 * know of a system (its name, and the dice of its Original roll, which the dice report counts);
 * everything else about it is its descriptor, beside its commands, which the compiler asks for once
 * its id is here.
 */
export const RULE_SYSTEMS = {
  asl: { name: 'Advanced Squad Leader', originalDice: { count: 2, sides: 6 } },
  'hearts-of-tin': { name: 'Hearts of Tin', originalDice: { count: 1, sides: 6 } },
  'lightning-war': { name: 'Lightning War', originalDice: { count: 3, sides: 6 } },
  // Fatigue rolls no dice.
  'wacht-am-rhein': { name: 'Wacht am Rhein', originalDice: { count: 0, sides: 6 } },
} satisfies Record<string, SystemDescriptor>;

/** The dice of a system's Original roll: how many, and of how many sides (a d10 game is not filed as d6). */
export type OriginalDice = { readonly count: number; readonly sides: number };
/** What the rules and the ledger know of a built-in system. */
export type SystemDescriptor = { readonly name: string; readonly originalDice: OriginalDice };

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
