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
};
