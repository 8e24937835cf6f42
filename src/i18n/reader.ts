import { AsyncLocalStorage } from 'node:async_hooks';
import { genderOfName } from './counters.js';
import { languageOf, nameIn, type Language } from './i18n.js';
import type { MessageKey } from './messages/en.js';
import { said, type Said, type Value } from './said.js';
import { sayIn } from './speak.js';
import { frenchTypography } from './typography.js';

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

/**
 * The unit a result is about, while its reply is drawn: a result's words agree with it ("Brisé" for a
 * leader, "Brisée" for a squad) through `subject_gender`, though the rules that chose the words
 * never knew the reader's language.
 */
const subject = new AsyncLocalStorage<string>();

/** Draws `work` speaking of the unit so named (its counter name, or its roster name beside it). */
export const speakingOf = <T>(name: string, work: () => T): T => subject.run(name, work);

function about(lang: Language): Record<string, string> {
  const name = subject.getStore();
  return name === undefined || lang === 'en' ? {} : { subject_gender: genderOfName(lang, name) };
}

/** A sentence of the catalogs in the reader's language. */
export const say = (key: MessageKey, values?: Record<string, Value>): string => {
  const lang = readerLanguage();
  return sayIn(lang, said(key, values), about(lang));
};

/** A command as the reader's client names it: `/rally` reads `/sammeln` to a German player (a pack's own name stays). */
export const commandShown = (words: string): string =>
  `/${words
    .split(' ')
    .map((w) => nameIn(readerLanguage(), w))
    .join(' ')}`;

/** Something already said (a rule's sidecar, a refusal) in the reader's language. */
export const shown = (s: Said): string => {
  const lang = readerLanguage();
  return sayIn(lang, s, about(lang));
};

const formats = new Map<string, Intl.NumberFormat>();
function formatIn(lang: Language, style: 'percent' | 'decimal', digits: number): Intl.NumberFormat {
  const id = `${lang}:${style}:${digits}`;
  let f = formats.get(id);
  if (!f) {
    f = new Intl.NumberFormat(lang, { style, minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false });
    formats.set(id, f);
  }
  return f;
}

/** A chance as a percentage the reader's language writes (24.1%, 24,1 %, 24,1 %). */
export function percentIn(p: number, digits = 1): string {
  const lang = readerLanguage();
  if (lang === 'en') return `${(p * 100).toFixed(digits)}%`;
  const text = formatIn(lang, 'percent', digits).format(p);
  return lang === 'fr' ? frenchTypography(text) : text;
}

/** Figures written with a decimal point (3.50, p = 0.049), as the reader's language writes them (3,50). */
export function figuresIn(text: string): string {
  const lang = readerLanguage();
  if (lang === 'en') return text;
  const point =
    formatIn(lang, 'decimal', 1)
      .formatToParts(1.5)
      .find((p) => p.type === 'decimal')?.value ?? '.';
  return text.replace(/(\d)\.(\d)/g, `$1${point}$2`);
}
