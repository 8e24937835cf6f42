import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { CONCEPTS, GLOSSARIES, glossed, type Concept, type Glossary, type GlossaryLanguage } from '../../src/i18n/glossary.js';
import { deSource } from '../../src/i18n/messages/de.js';
import { EN, type MessageKey } from '../../src/i18n/messages/en.js';
import { frSource } from '../../src/i18n/messages/fr.js';
import { CATALOGS } from '../../src/i18n/speak.js';

// Every catalog's sentence against its language's glossary: one word per concept, and no English
// a player would wince at, beyond the terms the glossary keeps as the rulebooks print them.

type Node = { type: number; value?: string; options?: Record<string, { value: Node[] }> };
/** The words a sentence shows: its literal text, branch by branch, without parameters or selector keys. */
function literalText(text: string, lang: string): string {
  const out: string[] = [];
  const walk = (nodes: Node[]) => {
    for (const n of nodes) {
      if (n.type === 0 && n.value) out.push(n.value);
      for (const o of Object.values(n.options ?? {})) walk(o.value);
      out.push(' ');
    }
  };
  walk(new IntlMessageFormat(text, lang, undefined, { ignoreTag: true }).getAst() as unknown as Node[]);
  return out.join('');
}

// Words of letters only: `sha256`, `2d6` and `name_like` are not prose.
const words = (s: string) => (s.match(/[\p{L}\p{N}_’'-]+/gu) ?? []).filter((w) => /^[\p{L}’'-]{3,}$/u.test(w));
/** Words the English catalog uses (the shape of English a translation may have left in). */
const ENGLISH = new Set(
  Object.values(EN as Record<string, string>)
    .flatMap((s) => words(literalText(s, 'en')))
    .map((w) => w.toLowerCase()),
);

/** What a sentence shows that is not a word of prose: code, option:value, rule references, abbreviations. */
function prose(text: string, kept: readonly string[]): string {
  let s = text;
  for (const k of [...kept].sort((a, b) => b.length - a.length)) s = s.replaceAll(k, ' ');
  return s
    .replace(/`[^`]*`/g, ' ')
    .replace(/https?:\S+/g, ' ')
    .replace(/(@|--)[\w-]+/g, ' ')
    .replace(/[\w-]*\.(html|jsonl|txt|yaml)\b/g, ' ')
    .replace(/\b\w+\/\w+\b/g, ' ')
    .replace(/[\w-]+[:=][\w<>%/.…-]*/g, ' ')
    .replace(/:\w+/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\b[A-Z]{2,}s?\b/g, ' ')
    .replace(/"[^"]*"/g, ' ');
}

const LANGS: GlossaryLanguage[] = ['de', 'fr'];
const KEYS = Object.keys(EN) as MessageKey[];

describe('the glossary', () => {
  it.each(LANGS)('%s words every concept once, with a gender where it has an article', (lang) => {
    const g = GLOSSARIES[lang];
    expect(Object.keys(g.terms).sort()).toEqual([...CONCEPTS].sort());
    for (const c of CONCEPTS) expect(g.terms[c].gender, `${lang}.${c}`).toBeDefined();
  });

  it.each(LANGS)('no %s sentence uses a second word for a glossary concept', (lang) => {
    const g = GLOSSARIES[lang];
    const found: string[] = [];
    for (const key of KEYS) {
      const text = CATALOGS[lang][key];
      const shown = literalText(text, lang);
      // A pattern naming a parameter ("Wurf **{original}**") is read against the sentence as written.
      const hit = (re: RegExp) => re.test(re.source.includes('\\{') ? text : shown);
      for (const c of CONCEPTS) for (const re of g.terms[c].not ?? []) if (hit(re)) found.push(`${key}: ${c} as ${re} in "${text}"`);
    }
    expect(found).toEqual([]);
  });

  it.each(LANGS)('no %s sentence leaves in an English word its glossary does not keep', (lang) => {
    const g = GLOSSARIES[lang];
    const own = new Set(g.shared.map((w) => w.toLowerCase()));
    const found: string[] = [];
    for (const key of KEYS) {
      const text = prose(literalText(CATALOGS[lang][key], lang), g.kept);
      const english = words(text).filter((w) => ENGLISH.has(w.toLowerCase()) && !own.has(w.toLowerCase()));
      if (english.length) found.push(`${key}: ${english.join(', ')}`);
    }
    expect(found).toEqual([]);
  });
});

const SOURCES = { de: deSource, fr: frSource };
const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The glossary with one concept's word swapped for a word no sentence writes. */
function swapped(g: Glossary, c: Concept): Glossary {
  return { ...g, terms: { ...g.terms, [c]: { ...g.terms[c], word: 'Qqq', plural: 'Qqqs' } } };
}

describe('the catalogs take their words from the glossary', () => {
  it.each(LANGS)('a %s word changed in the glossary leaves none of the old word in any sentence', (lang) => {
    const g = GLOSSARIES[lang];
    const found: string[] = [];
    for (const c of CONCEPTS) {
      const t = g.terms[c];
      const old = [...new Set([t.word, t.plural ?? t.word])];
      // Another concept's word that holds this one ("escouade réduite", "jet de ralliement") is that concept's.
      const longer = CONCEPTS.filter((o) => o !== c)
        .flatMap((o) => [g.terms[o].word, g.terms[o].plural ?? ''])
        .filter((w) => w && old.some((x) => w !== x && w.includes(x)));
      const filled = glossed(lang, SOURCES[lang], swapped(g, c));
      for (const key of KEYS) {
        let text = filled[key];
        for (const phrase of [...(t.elsewhere ?? []), ...longer]) text = text.replaceAll(phrase, ' ');
        // Option names in code (`drm_chef`) are the commands' own, named elsewhere.
        const shown = literalText(text, lang).replace(/`[^`]*`/g, ' ');
        for (const w of old) if (new RegExp(`(?<![\\p{L}])${escaped(w)}(?![\\p{L}])`, 'u').test(shown)) found.push(`${key}: "${w}" written by hand`);
      }
    }
    expect(found).toEqual([]);
  });

  it('articles and agreement follow the word’s gender', () => {
    const de = { ...GLOSSARIES.de, terms: { ...GLOSSARIES.de.terms, leader: { word: 'Führungskraft', plural: 'Führungskräfte', gender: 'f' as const } } };
    const src = { a: 'ersetze ihn durch [einen gebrochenen leader]', b: 'die [leader:pl]', c: '[der leader] hat' };
    expect(glossed('de', src, de)).toEqual({ a: 'ersetze ihn durch eine gebrochene Führungskraft', b: 'die Führungskräfte', c: 'die Führungskraft hat' });
    expect(glossed('fr', { a: '[le unit] [un unit brisé/brisée]', b: '[le hero]' })).toEqual({ a: 'l’unité une unité brisée', b: 'le héros' });
    expect(() => glossed('de', { a: '[nothing]' })).toThrow(/names no glossary concept/);
  });
});

describe('one register', () => {
  it('French says tu, as every French sentence does, and writes its apostrophes ’', () => {
    const found: string[] = [];
    for (const key of KEYS) {
      const text = CATALOGS.fr[key];
      const shown = literalText(text, 'fr').replace(/`[^`]*`/g, ' ');
      if (/\b(vous|votre|vos)\b/i.test(shown) || /\p{L}+ez\b(?!\p{L})/u.test(shown)) found.push(`${key}: vous in "${text}"`);
      if (text.includes("'")) found.push(`${key}: a straight apostrophe in "${text}"`);
    }
    expect(found).toEqual([]);
  });

  // "Ihre" is also a feminine unit's "its": only a formal address reads as one.
  it('German says du, never Sie', () => {
    const found = KEYS.filter((key) => /\b(Ihnen|(Versuchen|Geben|Lassen|Nutzen|Wählen|Setzen|Starten) Sie)\b/.test(literalText(CATALOGS.de[key], 'de')));
    expect(found).toEqual([]);
  });
});
