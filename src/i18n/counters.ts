import { genderOf, wordsOf, type Concept, type Gender, type GlossaryLanguage } from './glossary.js';

/**
 * A counter as the unit data names it in English ("German 9-1 leader", "German 2-3-7 half-squad
 * (Green)") reads in another language with the glossary's word around the printed counter:
 * "Anführer German 9-1", "chef German 9-1". The ledger keeps the English name; only what a reader
 * sees changes. A roster name a player chose ("1st Foot") matches nothing and stays as written.
 */
const KIND_OF_SUFFIX: Record<string, Concept> = { leader: 'leader', 'half-squad': 'halfSquad', 'reduced squad': 'reducedSquad' };
const COUNTER_NAME = /([A-Z][A-Za-z]*(?: [A-Z][A-Za-z]*)* \d+[-+]\d+(?:-\d+)?) (half-squad|leader|reduced squad)( \([A-Za-z0-9 ]+\))?/g;
/** A squad's printed counter with no kind after it (German 4-6-7). */
const SQUAD_COUNTER = /\b\d+-\d+-\d+\b/;

/** Every counter name in the text, named in the language around its printed counter. */
export function countersIn(lang: GlossaryLanguage, text: string): string {
  const w = wordsOf(lang);
  return text.replace(COUNTER_NAME, (_, base: string, suffix: string, cls = '') => `${w.w(KIND_OF_SUFFIX[suffix]!)} ${base}${cls}`);
}

/** The grammatical gender of what a name names: a leader's, a half-squad's, a squad's, else a unit's. */
export function genderOfName(lang: GlossaryLanguage, text: string): Gender {
  const m = new RegExp(COUNTER_NAME.source).exec(text);
  if (m) return genderOf(lang, KIND_OF_SUFFIX[m[2]!]!);
  return genderOf(lang, SQUAD_COUNTER.test(text) ? 'squad' : 'unit');
}
