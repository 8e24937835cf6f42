import { IntlMessageFormat } from 'intl-messageformat';
import { de } from './messages/de.js';
import { EN, type MessageKey } from './messages/en.js';
import { fr } from './messages/fr.js';
import { countersIn, genderOfName } from './counters.js';
import { languageOf, nameIn, type Language } from './i18n.js';
import { frenchTypography } from './typography.js';
import type { Said, Value } from './said.js';

/** Every sentence the bot says, by language: English is the source, German and French translate every key. */
export const CATALOGS: Record<Language, Record<MessageKey, string>> = { en: EN, de, fr };

// Each sentence parsed once per language; tags off, so `<#123>` and `<system>` stay text.
const formats = new Map<string, IntlMessageFormat>();
function formatOf(lang: Language, key: MessageKey): IntlMessageFormat {
  const id = `${lang}:${key}`;
  let f = formats.get(id);
  if (!f) {
    f = new IntlMessageFormat(CATALOGS[lang][key], lang, undefined, { ignoreTag: true });
    formats.set(id, f);
  }
  return f;
}

const genders = new Map<string, readonly string[]>();
/** The `<name>_gender` parameters a sentence agrees with. */
function gendersOf(lang: Language, key: MessageKey): readonly string[] {
  const id = `${lang}:${key}`;
  let found = genders.get(id);
  if (!found) {
    found = [...new Set(CATALOGS[lang][key].match(/\b\w+_gender\b/g) ?? [])];
    genders.set(id, found);
  }
  return found;
}

/** What the bot says, in the language of a Discord locale (English where we have none). */
export function speak(locale: string | undefined, s: Said): string {
  return sayIn(languageOf(locale), s);
}

/**
 * The same in a language. Each text parameter also gives its gender as `<name>_gender` (a leader's,
 * a half-squad's, a unit's), so a sentence's article and adjectives agree with the name it is given.
 */
export function sayIn(lang: Language, s: Said, about: Readonly<Record<string, string>> = {}): string {
  const id = plainId(lang, s, about);
  const known = id === undefined ? undefined : sentences.get(id);
  if (known !== undefined) return known;
  const text = formatted(lang, s, about);
  if (id !== undefined) {
    if (sentences.size >= SENTENCES_KEPT) sentences.clear();
    sentences.set(id, text);
  }
  return text;
}

/**
 * Sentences already said whose values are numbers only (a roll's markers, its odds, its
 * headings): the same few hundred recur in every reply, and formatting one is a few microseconds.
 * Sentences carrying text (a unit's name, a note) are formatted each time, never kept.
 */
const sentences = new Map<string, string>();
const SENTENCES_KEPT = 5_000;

function plainId(lang: Language, s: Said, about: Readonly<Record<string, string>>): string | undefined {
  let id = `${lang}\u0000${s.key}\u0000${about.subject_gender ?? ''}`;
  for (const k in about) if (k !== 'subject_gender') return undefined;
  for (const k in s.values) {
    const v = s.values[k];
    if (typeof v !== 'number') return undefined;
    // −0 is written "-0" by the formats but "0" by a template.
    id += `\u0000${k}=${Object.is(v, -0) ? '-0' : v}`;
  }
  return id;
}

function formatted(lang: Language, s: Said, about: Readonly<Record<string, string>>): string {
  const values: Record<string, string | number> = { ...about };
  for (const [k, v] of Object.entries(s.values ?? {})) {
    values[k] = valueIn(lang, v, about);
    if (lang !== 'en' && typeof v === 'string') values[`${k}_gender`] = genderOfName(lang, v);
  }
  // A gender no value gave (a name not passed as text) falls to each sentence's `other` words.
  for (const g of gendersOf(lang, s.key)) values[g] ??= 'other';
  const text = String(formatOf(lang, s.key).format(values));
  return lang === 'fr' ? frenchTypography(text) : text;
}

function valueIn(lang: Language, v: Value, about: Readonly<Record<string, string>>): string | number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return lang === 'en' ? v : countersIn(lang, v);
  if ('key' in v) return sayIn(lang, v, about);
  if ('option' in v) return nameIn(lang, v.option);
  if ('command' in v)
    return `/${v.command
      .split(' ')
      .map((w) => nameIn(lang, w))
      .join(' ')}`;
  const items = v.list.map((x) => String(valueIn(lang, x, about)));
  const plain = { comma: ', ', lines: '\n', space: ' ', semicolon: '; ', slash: '/' } as const;
  if (v.joiner && v.joiner in plain) return items.join(plain[v.joiner as keyof typeof plain]);
  if (v.joiner === 'chain') return items.join(sayIn(lang, { key: 'chainAnd' }));
  return new Intl.ListFormat(lang, { type: v.joiner === 'or' ? 'disjunction' : 'conjunction' }).format(items);
}
