import { DE_GLOSSARY } from './glossary/de.js';
import { FR_GLOSSARY } from './glossary/fr.js';
import { CONCEPTS, type Concept, type Gender, type Glossary } from './glossary/types.js';

export { CONCEPTS, type Concept, type Gender, type Glossary } from './glossary/types.js';

/**
 * The words of the rules and of the bot, one glossary per language: each concept has one word (and
 * its gender, where articles and adjectives agree with it). The catalogs take their words and
 * articles from here, so a translator changes a word in one place, and a test holds every sentence
 * to it: no second word for a glossary concept, no English word a glossary does not keep.
 */
export const GLOSSARIES = { de: DE_GLOSSARY, fr: FR_GLOSSARY } as const;
export type GlossaryLanguage = keyof typeof GLOSSARIES;

/** German articles by the masculine form a sentence writes (its case), for each gender. */
const DE_ARTICLES: Record<string, Record<Gender, string>> = {
  ein: { m: 'ein', f: 'eine', n: 'ein' },
  einen: { m: 'einen', f: 'eine', n: 'ein' },
  einem: { m: 'einem', f: 'einer', n: 'einem' },
  eines: { m: 'eines', f: 'einer', n: 'eines' },
  kein: { m: 'kein', f: 'keine', n: 'kein' },
  keinen: { m: 'keinen', f: 'keine', n: 'kein' },
  der: { m: 'der', f: 'die', n: 'das' },
  den: { m: 'den', f: 'die', n: 'das' },
  dem: { m: 'dem', f: 'der', n: 'dem' },
  des: { m: 'des', f: 'der', n: 'des' },
  er: { m: 'er', f: 'sie', n: 'es' },
  ihn: { m: 'ihn', f: 'sie', n: 'es' },
  sein: { m: 'sein', f: 'ihr', n: 'sein' },
  seine: { m: 'seine', f: 'ihre', n: 'seine' },
  seinen: { m: 'seinen', f: 'ihren', n: 'seinen' },
};

/** French determiners and pronouns by the masculine form a sentence writes. */
const FR_ARTICLES: Record<string, Record<Gender, string>> = {
  un: { m: 'un', f: 'une', n: 'un' },
  le: { m: 'le', f: 'la', n: 'le' },
  du: { m: 'du', f: 'de la', n: 'du' },
  au: { m: 'au', f: 'à la', n: 'au' },
  il: { m: 'il', f: 'elle', n: 'il' },
  ce: { m: 'ce', f: 'cette', n: 'ce' },
  de: { m: 'de', f: 'de', n: 'de' },
};

// French elides le/la/de/de la/à la/ce before a vowel.
const ELIDED: Record<string, string> = { le: 'l’', la: 'l’', du: 'de l’', 'de la': 'de l’', au: 'à l’', 'à la': 'à l’', ce: 'cet', cette: 'cette', de: 'd’' };
// Not before an h: the glossary's one h-word (héros) is aspirated, "le héros".
const startsWithVowel = (w: string) => /^[aeiouyàâéèêëîïôû]/i.test(w);

function articleFor(lang: GlossaryLanguage, form: string, gender: Gender, next?: string): string {
  const table = lang === 'de' ? DE_ARTICLES : FR_ARTICLES;
  const forms = table[form];
  if (!forms) throw new Error(`no article "${form}" in ${lang}`);
  const a = forms[gender];
  if (lang === 'fr' && next !== undefined && startsWithVowel(next) && ELIDED[a]) return ELIDED[a];
  return a;
}

const join = (a: string, w: string) => (a.endsWith('’') ? `${a}${w}` : `${a} ${w}`);

/** A language's glossary as the catalogs write with it. */
export function wordsOf(lang: GlossaryLanguage) {
  const g = GLOSSARIES[lang];
  const term = (c: Concept) => g.terms[c];
  return {
    /** The concept's word. */
    w: (c: Concept) => term(c).word,
    /** Its plural. */
    pl: (c: Concept) => term(c).plural ?? term(c).word,
    /** The word after the article of its gender, in the case `form` names by its masculine spelling ("einen", "le"). */
    a: (form: string, c: Concept) => join(articleFor(lang, form, term(c).gender ?? 'm', term(c).word), term(c).word),
    /** The article alone, agreeing with the concept. */
    art: (form: string, c: Concept) => articleFor(lang, form, term(c).gender ?? 'm', term(c).word),
    /** An adjective agreeing with the concept, given its masculine and feminine (and neuter) forms. */
    adj: (c: Concept, forms: Partial<Record<Gender, string>> & { m: string }) => forms[term(c).gender ?? 'm'] ?? forms.m,
    /**
     * A word agreeing with a parameter's gender, chosen when the sentence is said: the parameter is a
     * counter or a concept, and the bot gives its gender as `<param>_gender` (speak.ts).
     */
    by: (param: string, forms: Partial<Record<Gender, string>> & { m: string }) =>
      `{${param}_gender, select, ${(['m', 'f', 'n'] as const)
        .filter((x) => forms[x] !== undefined)
        .map((x) => `${x} {${forms[x]}}`)
        .join(' ')} other {${forms.m}}}`,
    /** The article agreeing with a parameter's gender (a counter's, a concept's), as `by` does. */
    artBy: (param: string, form: string) => {
      const table = lang === 'de' ? DE_ARTICLES : FR_ARTICLES;
      const f = table[form]!;
      return `{${param}_gender, select, m {${f.m}} f {${f.f}} n {${f.n}} other {${f.m}}}`;
    },
  };
}

/** The gender of a concept's word, for a parameter that names it. */
export const genderOf = (lang: GlossaryLanguage, c: Concept): Gender => GLOSSARIES[lang].terms[c].gender ?? 'm';

const CONCEPT_OF = new Map<string, Concept>(CONCEPTS.map((c) => [c.toLowerCase(), c]));
const GENDER_INDEX: Record<Gender, number> = { m: 0, f: 1, n: 2 };
const upperFirst = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
const isUpper = (w: string) => w !== w.toLowerCase() && w.charAt(0) === w.charAt(0).toUpperCase();

/** Masculine adjective endings after a German article, and the feminine and neuter ones they become. */
const DE_ENDINGS: Record<string, [string, string, string]> = {
  ein: ['er', 'e', 'es'],
  kein: ['er', 'e', 'es'],
  einen: ['en', 'e', 'es'],
  keinen: ['en', 'e', 'es'],
  der: ['e', 'e', 'e'],
  den: ['en', 'e', 'e'],
};

/** A German adjective written masculine after `form`, declined for the gender (dative and genitive keep -en). */
function declined(form: string, adjective: string, gender: Gender): string {
  const endings = DE_ENDINGS[form];
  const m = /^([a-zäöüß]+?)(er|en|es|e)(,?)$/.exec(adjective);
  if (!endings || !m || m[2] !== endings[0]) return adjective;
  return `${m[1]}${endings[GENDER_INDEX[gender]]}${m[3]}`;
}

/**
 * One glossary token of a catalog sentence, filled: `[leader]` the word, `[Leader]` capitalised,
 * `[leader:pl]` the plural, `[einen leader]` with the article of the word's gender, and words
 * written `m/f/n` (`[un leader brisé/brisée]`) agreeing with it (German adjectives between
 * the article and the word are written masculine and declined: `[einen gebrochenen leader]`), so a new word brings its own article and agreement.
 */
function fillToken(lang: GlossaryLanguage, g: Glossary, token: string): string {
  const parts = token.split(' ');
  // The concept may end a compound: `[eine {system}-unit]`.
  const split = (p: string) => /^(.*-)?([A-Za-z]+)(:pl)?$/.exec(p);
  const at = parts.findIndex((p) => CONCEPT_OF.has(split(p)?.[2]?.toLowerCase() ?? ''));
  if (at < 0) throw new Error(`[${token}] names no glossary concept`);
  const [, head = '', name = '', pl = ''] = split(parts[at]!)!;
  const term = g.terms[CONCEPT_OF.get(name.toLowerCase())!];
  const gender = term.gender ?? 'm';
  const plural = pl !== '';
  const word = plural ? (term.plural ?? term.word) : term.word;
  const table = lang === 'de' ? DE_ARTICLES : FR_ARTICLES;
  const form = parts[0]!;
  const out = parts.map((p, i) => {
    if (i === at) return head + (isUpper(name) ? upperFirst(word) : word);
    if (p.includes('/')) {
      const forms = p.split('/');
      return forms[GENDER_INDEX[gender]] ?? forms[0]!;
    }
    // German adjectives between the article and the word are written masculine and declined here.
    return lang === 'de' && i > 0 && i < at && !plural ? declined(form.toLowerCase(), p, gender) : p;
  });
  if (at > 0 && !plural && table[form.toLowerCase()]) {
    const a = articleFor(lang, form.toLowerCase(), gender, out[1]);
    const article = isUpper(form) ? upperFirst(a) : a;
    return out.length > 1 && article.endsWith('’') ? `${article}${out.slice(1).join(' ')}` : [article, ...out.slice(1)].join(' ');
  }
  return out.join(' ');
}

/** A catalog with its glossary tokens filled from a glossary (a test fills one with other words). */
export function glossed<K extends string>(lang: GlossaryLanguage, source: Readonly<Record<K, string>>, g: Glossary = GLOSSARIES[lang]): Record<K, string> {
  const out = {} as Record<K, string>;
  for (const [k, text] of Object.entries(source) as [K, string][]) out[k] = text.replace(/\[([^[\]]+)\]/g, (_, t: string) => fillToken(lang, g, t));
  return out;
}
