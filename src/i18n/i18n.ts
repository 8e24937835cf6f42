import i18next, { type TFunction } from 'i18next';
import { de } from './de.js';
import { REPLIES, type ReplyKey, type Translation } from './en.js';
import { fr } from './fr.js';

/**
 * The bot's languages (issue 30), through i18next: English, and German and French for the large
 * ASL and miniatures communities. Command and option names and descriptions are registered in each
 * (Discord shows them in the user's language); replies are in the interaction's locale where a
 * translation exists, English otherwise. Rule references stay as printed. Pinned to i18next 23:
 * 24 and later declare an optional peer dependency on TypeScript that `npm prune --omit=dev` keeps
 * in a production install, and 27 needs Node 22.
 */
// English names and descriptions are their own keys: i18next gives back the key where no language has it.
const en: Translation = { names: {}, descriptions: {}, replies: REPLIES };
export const LANGUAGES = { en, de, fr } as const;
/** The locales Discord names them by (Discord's German and French have no region). */
export const TRANSLATED = ['de', 'fr'] as const;

const i18n = i18next.createInstance();
// English sentences are the keys: no key or namespace separators, nothing escaped (Discord is not HTML).
void i18n.init({
  resources: Object.fromEntries(Object.entries(LANGUAGES).map(([lng, t]) => [lng, t])),
  ns: ['names', 'descriptions', 'replies'],
  lng: 'en',
  fallbackLng: 'en',
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  initImmediate: false,
});

/** The language of a Discord locale (`de`, `fr`, `en-GB` …): ours where we have it, English otherwise. */
export const languageOf = (locale: string | undefined) => TRANSLATED.find((l) => locale === l || locale?.startsWith(`${l}-`)) ?? 'en';

/** A reply in the interaction's language. */
export function reply(locale: string | undefined, key: ReplyKey, values: Record<string, string | number> = {}): string {
  const t: TFunction = i18n.getFixedT(languageOf(locale), 'replies');
  return t(key, values);
}

/** Discord's localizations of an English name or description: { de, fr }. */
export function localizations(kind: 'names' | 'descriptions', english: string): Record<(typeof TRANSLATED)[number], string> {
  return Object.fromEntries(TRANSLATED.map((l) => [l, i18n.getFixedT(l, kind)(english)])) as Record<(typeof TRANSLATED)[number], string>;
}
