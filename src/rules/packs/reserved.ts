/** Options the bot adds to every pack command itself: a pack cannot declare them (apart from zod, so the verifiers' bundle needs none). */
export const RESERVED_OPTIONS = ['unit', 'sealed', 'note', 'odds_only'] as const;
