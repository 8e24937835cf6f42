/**
 * English, the bot's own language: command and option names and descriptions are the keys the
 * other languages translate (src/i18n/de.ts, fr.ts), read straight from the registered commands
 * (tests/unit/i18n.test.ts holds every language to them, and each string to Discord's limits).
 */
export type Translation = {
  /** By English name: the name Discord shows in that language (lowercase, 1–32 letters, digits, - or _). */
  names: Record<string, string>;
  /** By English description: the description in that language (1–100 characters). */
  descriptions: Record<string, string>;
  /** The replies translated so far, by key (i18next interpolation: {{ref}}); others stay English. */
  replies: Record<ReplyKey, string>;
};

export const REPLIES = {
  failed: 'Something went wrong (ref {{ref}}). Nothing was recorded for this request.',
  ledger: 'The roll could not be recorded, so no result is shown. Please try again (ref {{ref}}).',
  duplicate: 'This interaction was already handled (Discord delivered it twice, or it was sent again): nothing more was done.',
  rateLimited: 'Slow down: you are sending commands faster than this server allows. Try again in {{s}} s.',
  unknownButton: 'That button is not one of ours, or it has expired.',
  alreadyDone: 'That was already done.',
} as const;
export type ReplyKey = keyof typeof REPLIES;
