/** The rule systems the bot adjudicates: one list, and the names players see. */
export const SYSTEMS = ['asl', 'hearts-of-tin', 'lightning-war', 'wacht-am-rhein'] as const;
export type SystemId = (typeof SYSTEMS)[number];

export const SYSTEM_NAMES: Record<SystemId, string> = {
  asl: 'Advanced Squad Leader',
  'hearts-of-tin': 'Hearts of Tin',
  'lightning-war': 'Lightning War',
  'wacht-am-rhein': 'Wacht am Rhein',
};

/** A system's name: a built-in one's, a rule pack's id, or the id itself for one this build does not know (an old ledger row). */
export const systemName = (id: string) => SYSTEM_NAMES[id as SystemId] ?? (id.startsWith('pack:') ? `${id.slice(5)} (rule pack)` : id);

/** A rule pack's system: `pack:<its id>` (a club's own test, installed in one server). */
export type PackSystemId = `pack:${string}`;
/** Any system a roll or a game can be of: a built-in one, or an installed pack. */
export type AnySystemId = SystemId | PackSystemId;
export const packSystem = (packId: string): PackSystemId => `pack:${packId}`;
