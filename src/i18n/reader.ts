import { AsyncLocalStorage } from 'node:async_hooks';
import { languageOf, type Language } from './i18n.js';
import type { MessageKey } from './messages/en.js';
import { said, type Said, type Value } from './said.js';
import { sayIn } from './speak.js';

/**
 * The language of whoever the bot is answering, for the whole of one request: the router sets it
 * from the interaction's locale, and the renderers write every reply in it without each of the
 * hundred render functions taking a locale. Outside a request (a late delivery, the console's
 * own lines) it is English.
 */
const reader = new AsyncLocalStorage<Language>();

/** Runs `work` answering a reader of this Discord locale. */
export const answering = <T>(locale: string | undefined, work: () => T): T => reader.run(languageOf(locale), work);

/** The language of the reader being answered. */
export const readerLanguage = (): Language => reader.getStore() ?? 'en';

/** A sentence of the catalogs in the reader's language. */
export const say = (key: MessageKey, values?: Record<string, Value>): string => sayIn(readerLanguage(), said(key, values));

/** Something already said (a rule's sidecar, a refusal) in the reader's language. */
export const shown = (s: Said): string => sayIn(readerLanguage(), s);

const percents = new Map<string, Intl.NumberFormat>();
/** A chance as a percentage the reader's language writes (24.1%, 24,1 %, 24,1 %). */
export function percentIn(p: number, digits = 1): string {
  const lang = readerLanguage();
  if (lang === 'en') return `${(p * 100).toFixed(digits)}%`;
  const id = `${lang}:${digits}`;
  let f = percents.get(id);
  if (!f) {
    f = new Intl.NumberFormat(lang, { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits });
    percents.set(id, f);
  }
  return f.format(p);
}
