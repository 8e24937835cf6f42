import { de } from './de.js';
import type { Translation } from './en.js';
import { fr } from './fr.js';
import { own } from '../util/own.js';

/**
 * The bot's languages: English, and German and French for the large ASL and miniatures
 * communities. Command and option names and descriptions are registered in each (Discord shows them
 * in the user's language); what the bot says is in the interaction's locale (speak.ts). Rule
 * references stay as printed.
 */
// English names and descriptions are their own keys.
const en: Translation = { names: {}, descriptions: {} };
export const LANGUAGES = { en, de, fr } as const;
export type Language = keyof typeof LANGUAGES;
/** The locales Discord names them by (Discord's German and French have no region). */
export const TRANSLATED = ['de', 'fr'] as const;

/** The language of a Discord locale (`de`, `fr`, `en-GB` …): ours where we have it, English otherwise. */
export const languageOf = (locale: string | undefined): Language => TRANSLATED.find((l) => locale === l || locale?.startsWith(`${l}-`)) ?? 'en';

/** A command's, subcommand's or option's English name as a language's client shows it (a typed option name may be any text). */
export const nameIn = (lang: Language, english: string): string => own(LANGUAGES[lang].names, english) ?? english;

/** A command's or option's English description as a language's client shows it. */
export const descriptionIn = (lang: Language, english: string): string => own(LANGUAGES[lang].descriptions, english) ?? english;

/**
 * A typed command line (`/unit add name:"1st Foot" fields:x`) as a language's client takes it: the
 * command's words and each option's name in that language, the values as written.
 */
export function commandLineIn(lang: Language, line: string): string {
  let inOptions = false;
  return line.replace(/"[^"]*"|[^\s"]+/g, (token) => {
    const option = /^([a-z_-]+):/.exec(token);
    if (option) {
      inOptions = true;
      return `${nameIn(lang, option[1]!)}${token.slice(option[1]!.length)}`;
    }
    if (inOptions || token.startsWith('"')) return token;
    return token.startsWith('/') ? `/${nameIn(lang, token.slice(1))}` : nameIn(lang, token);
  });
}

/** Discord's localizations of an English name or description: { de, fr }. */
export function localizations(kind: 'names' | 'descriptions', english: string): Record<(typeof TRANSLATED)[number], string> {
  return Object.fromEntries(TRANSLATED.map((l) => [l, own(LANGUAGES[l][kind], english) ?? english])) as Record<(typeof TRANSLATED)[number], string>;
}
