/** Options the bot adds to every pack command itself: a pack cannot declare them (apart from zod, so the verifiers' bundle needs none). */
export const RESERVED_OPTIONS = ['unit', 'sealed', 'note', 'odds_only'] as const;

/** The names a pack's id may not take: a list, or a map of each name to what it is ("/rally, as German players see it"). */
export type TakenNames = readonly string[] | ReadonlyMap<string, string>;
