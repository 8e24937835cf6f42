import { IntlMessageFormat } from 'intl-messageformat';
import { de } from './messages/de.js';
import { EN, type MessageKey } from './messages/en.js';
import { fr } from './messages/fr.js';
import { languageOf, nameIn, type Language } from './i18n.js';
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

/** What the bot says, in the language of a Discord locale (English where we have none). */
export function speak(locale: string | undefined, s: Said): string {
  return sayIn(languageOf(locale), s);
}

/** The same in a language. */
export function sayIn(lang: Language, s: Said): string {
  const values: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(s.values ?? {})) values[k] = valueIn(lang, v);
  return String(formatOf(lang, s.key).format(values));
}

function valueIn(lang: Language, v: Value): string | number {
  if (typeof v === 'string' || typeof v === 'number') return v;
  if ('key' in v) return sayIn(lang, v);
  if ('option' in v) return nameIn(lang, v.option);
  if ('command' in v)
    return `/${v.command
      .split(' ')
      .map((w) => nameIn(lang, w))
      .join(' ')}`;
  const items = v.list.map((x) => String(valueIn(lang, x)));
  const plain = { comma: ', ', lines: '\n', space: ' ', semicolon: '; ', slash: '/' } as const;
  if (v.joiner && v.joiner in plain) return items.join(plain[v.joiner as keyof typeof plain]);
  if (v.joiner === 'chain') return items.join(sayIn(lang, { key: 'chainAnd' }));
  return new Intl.ListFormat(lang, { type: v.joiner === 'or' ? 'disjunction' : 'conjunction' }).format(items);
}
