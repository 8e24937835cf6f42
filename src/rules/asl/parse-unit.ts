import { CLASS_NAMES, catalog, derivedBrokenMl, unitName, type Catalog, type KnownUnit, type Size, type UnitClass } from './catalog.js';
import { own } from '../../util/own.js';
import { quotedWord } from '../../util/text.js';
import { isSaid, list, option, said, type Said } from '../../i18n/said.js';

/** Unit kinds that never take a Heat of Battle DR, with the reason the reply gives (A15.1). */
export const EXEMPT_KINDS = ['crew', 'hero', 'cavalry', 'unarmed', 'prc'] as const;
export type ExemptKind = (typeof EXEMPT_KINDS)[number];

const KIND_WORDS: Record<string, ExemptKind> = {
  crew: 'crew',
  crews: 'crew',
  hero: 'hero',
  heroes: 'hero',
  heroic: 'hero',
  cavalry: 'cavalry',
  cav: 'cavalry',
  unarmed: 'unarmed',
  prc: 'prc',
  passenger: 'prc',
  passengers: 'prc',
  rider: 'prc',
  riders: 'prc',
};

/**
 * Words that name a sub-type. A `data` tag picks the data row that carries it (SS 6-5-8); a soft one
 * narrows only where some row carries it (Russian 5-2-7 SMG); the others describe the unit and ride
 * along with whatever counter it has (Gurkha 4-5-8 is a British 4-5-8 that never surrenders).
 */
type TagWord = { tag: string; nationality?: string; use: 'data' | 'soft' | 'describe' };
const TAG_WORDS: Record<string, TagWord> = {
  ss: { tag: 'ss', nationality: 'german', use: 'data' },
  nkvd: { tag: 'nkvd', nationality: 'russian', use: 'data' },
  vg: { tag: 'volksgrenadier', nationality: 'german', use: 'data' },
  volksgrenadier: { tag: 'volksgrenadier', nationality: 'german', use: 'data' },
  volksgrenadiers: { tag: 'volksgrenadier', nationality: 'german', use: 'data' },
  usmc: { tag: 'usmc', nationality: 'american', use: 'data' },
  // Allied Minor, with a rule of its own for the broken side of its elite and 1st Line (A25.9).
  polish: { tag: 'polish', nationality: 'allied_minor', use: 'soft' },
  pole: { tag: 'polish', nationality: 'allied_minor', use: 'soft' },
  poles: { tag: 'polish', nationality: 'allied_minor', use: 'soft' },
  marine: { tag: 'usmc', nationality: 'american', use: 'data' },
  marines: { tag: 'usmc', nationality: 'american', use: 'data' },
  smg: { tag: 'smg', use: 'soft' },
  gurkha: { tag: 'gurkha', nationality: 'british', use: 'describe' },
  gurkhas: { tag: 'gurkha', nationality: 'british', use: 'describe' },
  commissar: { tag: 'commissar', nationality: 'russian', use: 'describe' },
};

/** Words that name a class ("Finnish 2-3-8 (1st)", "German 1st line 4-6-7"). */
const CLASS_WORDS: Record<string, UnitClass> = {
  conscript: 'conscript',
  green: 'green',
  elite: 'elite',
  '2nd': 'second_line',
  second: 'second_line',
  second_line: 'second_line',
  '1st': 'first_line',
  first: 'first_line',
  first_line: 'first_line',
};

/** Words players add that say nothing the counter does not. */
const FILLER = new Set([
  'squad',
  'squads',
  'hs',
  'half',
  'halfsquad',
  'half-squad',
  'mmc',
  'leader',
  'sml',
  'smc',
  'unit',
  'the',
  'a',
  'line',
  'airborne',
  'paratroops',
  'paratrooper',
  'paratroopers',
  'para',
  'guards',
  'rifle',
  'engineers',
  'engineer',
  'pioneers',
  'pioneer',
  'assault',
]);

/** An ASL unit as the rules need it, whether from the data or described by the player. */
export type AslUnit = {
  name: string;
  nationality: string;
  kind: Size | ExemptKind;
  counter: string | undefined;
  class: UnitClass | undefined;
  ml: number | undefined;
  brokenMl: number | undefined;
  leadership: number | undefined;
  tags: string[];
  /** The data entry, when the unit is in the data (its ladders apply). */
  known: KnownUnit | undefined;
};

export type ParseOptions = {
  nationality?: string | undefined;
  class?: UnitClass | undefined;
  tag?: string | undefined;
  /** An ML given with the unit (a berserk leader's companion, "German 5-5-8 ml:8"): a counter outside the data then needs no class. */
  ml?: number | undefined;
};

const LEADER_COUNTER = /^(10|[6-9])([+-])([0-3])$/;
const MMC_COUNTER = /^(\d)-(\d)-(\d{1,2})$|^(\d)(\d)(\d)$/;
/** Every dash players paste (hyphen, non-breaking hyphen, figure/en/em dash, minus) reads as "-". */
const DASHES = /[\u2010-\u2015\u2212\uFE63\uFF0D]/g;

function readCounter(raw: string): { counter: string; leader: boolean; numbers: number[] } | undefined {
  const t = raw.replace(/\s+/g, '').replace(/\//g, '-');
  const l = LEADER_COUNTER.exec(t);
  if (l) {
    const [, ml, sign, drm] = l as unknown as [string, string, string, string];
    // `|| 0`: a 7-0 leader's DRM is 0, not −0.
    return { counter: `${ml}${sign}${drm}`, leader: true, numbers: [Number(ml), Number(sign + drm) || 0] };
  }
  const m = MMC_COUNTER.exec(t);
  if (m) {
    const [a, b, c] = (m[1] ? m.slice(1, 4) : m.slice(4, 7)) as [string, string, string];
    return { counter: `${a}-${b}-${c}`, leader: false, numbers: [Number(a), Number(b), Number(c)] };
  }
  return undefined;
}

/**
 * Splits what a player typed into the counter (digits with - + / between, spaces allowed: "4 6 7",
 * "9 - 2") and the words around it. Ordinals (1st, 2nd) stay words; "4-6-7x" splits into 4-6-7 and x.
 */
function tokens(text: string): { counters: string[]; words: string[] } {
  const norm = text
    .toLowerCase()
    .replace(DASHES, '-')
    .replace(/\./g, '')
    .replace(/[_(),;:[\]]/g, ' ');
  const parts = norm
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((p) => (/^\d+(st|nd)$/.test(p) ? [p] : p.split(/(?<=\d)(?=[a-z])|(?<=[a-z])(?=\d)/)));
  const counters: string[] = [];
  const words: string[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length) counters.push(run.join(' '));
    run = [];
  };
  for (const p of parts) {
    if (/^[\d+\-/]+$/.test(p) && /\d|^[+\-/]$/.test(p)) run.push(p);
    else {
      flush();
      words.push(p);
    }
  }
  flush();
  return { counters, words };
}

function nationalityFor(cat: Catalog, words: string): string | undefined {
  for (const n of cat.nationalities.values()) {
    // A key is its name in snake case ("axis_minor"), and tokens() reads "_" as a space: the name covers both.
    if (words === n.name.toLowerCase() || n.aliases.includes(words)) return n.key;
  }
  return undefined;
}

export const describeNationalities = (cat: Catalog = catalog()) => [...cat.nationalities.values()].map((n) => n.key).join(', ');

/** The squads and half-squads whose counters are nearest this one, its own nationality first (a leader never is). */
function closest(cat: Catalog, nationality: string | undefined, numbers: number[]): string[] {
  const scored = cat.units
    .filter((u) => u.size !== 'leader')
    .map((u) => {
      const theirs = u.counter.split('-').map(Number);
      const nat = nationality && u.nationality !== nationality ? 100 : 0;
      return { u, score: nat + numbers.reduce((a, n, i) => a + Math.abs(n - theirs[i]!), 0) };
    });
  scored.sort((a, b) => a.score - b.score);
  return [...new Set(scored.slice(0, 5).map((s) => s.u.name))];
}

/** With the nationality missing: the data's units with this counter, or else every nationality. */
function nationalityChoices(cat: Catalog, counter: { counter: string }): Said {
  // A leader's counter (8-1) and a squad's (4-6-7) never share a spelling.
  const names = cat.units.filter((u) => u.counter === counter.counter).map((u) => u.name);
  const list = names.length ? [...new Set(names)].slice(0, 12).join(', ') : describeNationalities(cat);
  return said('counterNoNationality', { counter: counter.counter, list, nationality: option('nationality') });
}

/** The sub-types that only describe a unit (Gurkha, Commissar) go into its name after the nationality. */
const DESCRIBED: Record<string, string> = { gurkha: 'Gurkha', commissar: 'Commissar' };
const withTags = (u: AslUnit, extra: string[]): AslUnit => {
  const nat = catalog().nationalities.get(u.nationality)?.name ?? u.nationality;
  const name = extra.reduce((n, t) => n.replace(`${nat} `, `${nat} ${own(DESCRIBED, t)} `), u.name);
  return { ...u, tags: [...new Set([...u.tags, ...extra])], name };
};

type Counter = NonNullable<ReturnType<typeof readCounter>>;

/** What the words of a unit say besides its nationality: its kind, Class, sub-types, and the words left. */
type Words = {
  kind: ExemptKind | undefined;
  wordClass: UnitClass | undefined;
  reduced: boolean;
  /** Sub-types a data row must carry; sub-types that narrow only where one does; sub-types that only describe. */
  dataTags: Set<string>;
  softTags: Set<string>;
  describe: Set<string>;
  impliedNationality: string | undefined;
  /** The words left: each must belong to a nationality. */
  rest: string[];
};

function readWords(all: string[], opts: ParseOptions): Words {
  const w: Words = {
    kind: undefined,
    wordClass: undefined,
    reduced: false,
    dataTags: new Set(),
    softTags: new Set(),
    describe: new Set(),
    impliedNationality: undefined,
    rest: [],
  };
  const addTag = (t: TagWord) => (t.use === 'describe' ? w.describe : t.use === 'soft' ? w.softTags : w.dataTags).add(t.tag);
  // A sub-type given as an option narrows only where a data row carries it (sub_type:ss on a 4-6-7 is allowed).
  if (opts.tag) (own(TAG_WORDS, opts.tag)?.use === 'describe' ? w.describe : w.softTags).add(opts.tag);
  for (const word of all) {
    const kind = own(KIND_WORDS, word);
    const cls = own(CLASS_WORDS, word);
    const tag = own(TAG_WORDS, word);
    if (kind) w.kind = kind;
    else if (cls) w.wordClass = cls;
    else if (word === 'reduced') w.reduced = true;
    else if (tag) {
      addTag(tag);
      w.impliedNationality ??= tag.nationality;
    } else if (!FILLER.has(word)) w.rest.push(word);
  }
  return w;
}

/** The one nationality the words name ("axis minor" is two words), or the sentence saying what is wrong. */
function nationalityOfWords(cat: Catalog, words: string[]): { nationality: string | undefined } | Said {
  let nationality: string | undefined;
  for (let i = 0; i < words.length; ) {
    const two = i + 1 < words.length ? nationalityFor(cat, `${words[i]} ${words[i + 1]}`) : undefined;
    const found = two ?? nationalityFor(cat, words[i]!);
    if (!found) return said('notANationality', { word: quotedWord(words[i]!), known: describeNationalities(cat) });
    if (nationality && found !== nationality) return said('twoNationalities', { a: nationality, b: found });
    nationality = found;
    i += two ? 2 : 1;
  }
  return { nationality };
}

/** An exempt kind (a crew, a hero …): its Heat of Battle ruling is the same for every nationality (A15.1). */
function exemptUnit(
  w: Words,
  kind: ExemptKind,
  counter: Counter | undefined,
  nationality: string | undefined,
  natName: string | undefined,
  cls: UnitClass | undefined,
): AslUnit {
  const numbers = counter?.numbers;
  const named = natName ? `${natName} ${kind}` : `${kind[0]!.toUpperCase()}${kind.slice(1)}`;
  return withTags(
    {
      name: `${named}${counter ? ` ${counter.counter}` : ''}`,
      nationality: nationality ?? '',
      kind,
      counter: counter?.counter,
      class: cls,
      ml: numbers ? numbers.at(-1) : undefined,
      brokenMl: numbers ? numbers.at(-1) : undefined,
      leadership: undefined,
      tags: [...w.dataTags, ...w.softTags],
      known: undefined,
    },
    [...w.describe],
  );
}

/** A Commissar needs no counter for Heat of Battle; a Morale Check asks for his ML. */
const commissar = (nationality: string, natName: string): AslUnit => ({
  name: `${natName} Commissar`,
  nationality,
  kind: 'leader',
  counter: undefined,
  class: undefined,
  ml: undefined,
  brokenMl: undefined,
  leadership: 0,
  tags: ['commissar'],
  known: undefined,
});

/** The data units this counter can be, narrowed by the words and options; or the sentence saying why none is. */
function dataMatches(cat: Catalog, w: Words, counter: Counter, nationality: string, natName: string, cls: UnitClass | undefined): KnownUnit[] | Said {
  const size: Size[] = counter.leader ? ['leader'] : ['squad', 'half_squad'];
  let matches = cat.units.filter((u) => u.nationality === nationality && size.includes(u.size) && u.counter === counter.counter);
  // A Commissar is not one of the ranked leaders (A25.22).
  if (w.describe.has('commissar')) matches = [];
  // A Japanese reduced side is read only when asked for, or when the counter is nothing else.
  const full = matches.filter((u) => !u.reduced);
  if (w.reduced && full.length && !matches.some((u) => u.reduced)) {
    const flips = [...new Set(full.flatMap((u) => (u.flip ? [u.flip.name] : [])))];
    const values = { unit: `${natName} ${counter.counter}`, size: said(full[0]!.size === 'half_squad' ? 'aHalfSquad' : 'aFullSquad') };
    return flips.length ? said('fullSideFlips', { ...values, flips: list(flips, 'or') }) : said('fullSideOnly', values);
  }
  matches = w.reduced ? matches.filter((u) => u.reduced) : full.length ? full : matches;
  if (cls) {
    const ofClass = matches.filter((u) => u.class === cls || u.size === 'leader');
    if (matches.length && !ofClass.length) {
      return said('classInData', {
        unit: `${natName} ${counter.counter}`,
        classes: list(
          matches.map((u) => CLASS_NAMES[u.class!]),
          'or',
        ),
        given: CLASS_NAMES[cls],
      });
    }
    matches = ofClass;
  }
  for (const t of w.softTags) if (matches.some((u) => u.tags.includes(t))) matches = matches.filter((u) => u.tags.includes(t));
  // Without a sub-type word, prefer the plain unit (German 2-3-7 is 2nd Line, not the VG half-squad).
  const tagged = matches.filter((u) => [...w.dataTags].every((t) => u.tags.includes(t)));
  const plain = tagged.filter((u) => u.tags.every((t) => w.dataTags.has(t) || w.softTags.has(t)));
  const pick = plain.length ? plain : tagged;
  if (pick.length > 1) {
    const classes = pick.map((u) => `class:${u.class}`).join(' or ');
    return said('severalInData', {
      unit: `${natName} ${counter.counter}`,
      units: list(
        pick.map((u) => `${CLASS_NAMES[u.class!]} ${u.size.replace('_', '-')}`),
        'comma',
      ),
      classes,
    });
  }
  return pick;
}

/** A unit of the data, as this reading of it. */
const fromData = (w: Words, known: KnownUnit, nationality: string): AslUnit =>
  withTags(
    {
      name: known.name,
      nationality,
      kind: known.size,
      counter: known.counter,
      class: known.class,
      ml: known.ml,
      brokenMl: known.brokenMl,
      leadership: known.leadership,
      tags: [...new Set([...known.tags, ...w.softTags])],
      known,
    },
    [...w.describe],
  );

/** A unit the data does not hold, read from its counter: a leader always; a squad only with its Class. */
function fromCounter(
  cat: Catalog,
  w: Words,
  counter: Counter,
  nationality: string,
  natName: string,
  cls: UnitClass | undefined,
  mlGiven?: number,
): AslUnit | Said {
  if (counter.leader) {
    return withTags(
      {
        name: `${natName} ${counter.counter} leader`,
        nationality,
        kind: 'leader',
        counter: counter.counter,
        class: undefined,
        ml: counter.numbers[0],
        // Leaders break to their own ML; Japanese leaders have no broken side (G1.4).
        brokenMl: nationality === 'japanese' ? undefined : counter.numbers[0],
        leadership: counter.numbers[1],
        tags: [...w.dataTags, ...w.softTags],
        known: undefined,
      },
      [...w.describe],
    );
  }
  // Named with its sub-type ("German SS 4-6-7"): the plain counter may well be in the data.
  const named = unitName(cat.nationalities, { nationality, counter: counter.counter, tags: [...w.dataTags] });
  // Its ML given, the counter is rolled against it as it is: only its class would be a guess.
  if (!cls && mlGiven !== undefined) {
    return withTags(
      {
        name: named,
        nationality,
        kind: 'squad',
        counter: counter.counter,
        class: undefined,
        ml: mlGiven,
        brokenMl: mlGiven,
        leadership: undefined,
        tags: [...w.dataTags, ...w.softTags],
        known: undefined,
      },
      [...w.describe],
    );
  }
  if (!cls) {
    return said('notInData', { unit: named, closest: list(closest(cat, nationality, counter.numbers), 'comma'), class: option('class') });
  }
  const ml = counter.numbers[2]!;
  const tags = [...w.dataTags, ...w.softTags];
  return withTags(
    {
      name: named,
      nationality,
      kind: 'squad',
      counter: counter.counter,
      class: cls,
      ml,
      // Japanese squads have no broken side (G1.1); others follow the general rules behind the counters' numbers.
      brokenMl: nationality === 'japanese' ? undefined : derivedBrokenMl(cat, { nationality, class: cls, tags, ml, counter: counter.counter }),
      leadership: undefined,
      tags,
      known: undefined,
    },
    [...w.describe],
  );
}

const NAME_THE_NATIONALITY = said('nameTheNationality', { nationality: option('nationality') });

/** What a unit written as a name of the player's own ("my squad") is told: how to write its counter. */
function notACounter(cat: Catalog, text: string, nationality: string | undefined): Said {
  const natName = (nationality && cat.nationalities.get(nationality)?.name) || 'German';
  const values = { text: quotedWord(text.trim()), nat: natName };
  return nationality ? said('notACounterGiven', { ...values, nationality: option('nationality') }) : said('notACounter', values);
}

/**
 * Reads a unit as players write it ("German 4-6-7", "ge 467", "Russian 2-2-7", "British 8-1",
 * "SS 6-5-8", "German crew", "Finnish 2-3-8 (1st)", "U.S. 6-6-6", "4/6/7"). Returns the unit, or
 * the sentence saying what is wrong.
 */
export function parseUnit(text: string, opts: ParseOptions = {}, cat: Catalog = catalog()): AslUnit | Said {
  const { counters, words: all } = tokens(text);
  if (counters.length > 1) return said('twoCounters', { text: text.trim(), counters: list(counters, 'comma') });
  const counter = counters[0] !== undefined ? readCounter(counters[0]) : undefined;
  if (counters[0] !== undefined && !counter) return said('badCounter', { counter: counters[0] });
  const w = readWords(all, opts);
  if (w.wordClass && opts.class && w.wordClass !== opts.class) return said('unitSaysOther', { word: w.wordClass, option: option('class'), given: opts.class });
  const cls = opts.class ?? w.wordClass;
  const named = nationalityOfWords(cat, w.rest);
  // A word the bot cannot read and no counter at all: a name of the player's own, so teach the counter.
  if (isSaid(named)) return counter ? named : notACounter(cat, text, opts.nationality);
  if (named.nationality && opts.nationality && named.nationality !== opts.nationality) {
    return said('unitSaysOther', { word: cat.nationalities.get(named.nationality)!.name, option: option('nationality'), given: opts.nationality });
  }
  const nationality = named.nationality ?? opts.nationality ?? w.impliedNationality;
  // An exempt kind (a crew, a hero …) needs no nationality.
  if (!nationality && !w.kind) return counter ? nationalityChoices(cat, counter) : NAME_THE_NATIONALITY;
  const natName = nationality ? cat.nationalities.get(nationality)?.name : undefined;
  if (nationality && !natName) return said('notANationality', { word: quotedWord(nationality), known: describeNationalities(cat) });
  if (w.kind) return exemptUnit(w, w.kind, counter, nationality, natName, cls);
  // Past the exempt kinds there is always a nationality.
  if (!nationality || !natName) return NAME_THE_NATIONALITY;
  if (!counter) {
    if (w.describe.has('commissar')) return commissar(nationality, natName);
    return said('giveTheCounter', { nat: natName });
  }
  const matches = dataMatches(cat, w, counter, nationality, natName, cls);
  if (isSaid(matches)) return matches;
  return matches[0] ? fromData(w, matches[0], nationality) : fromCounter(cat, w, counter, nationality, natName, cls, opts.ml);
}

/** Known unit names matching what a player has typed so far, for autocomplete. */
export function suggestUnits(typed: string, limit = 25, cat: Catalog = catalog()): string[] {
  const words = typed.toLowerCase().replace(DASHES, '-').replace(/\./g, '').split(/\s+/).filter(Boolean);
  const out: string[] = [];
  for (const u of cat.units) {
    const n = cat.nationalities.get(u.nationality)!;
    const hay = [u.name.toLowerCase(), n.key, ...n.aliases, u.counter.replace(/[-/]/g, '')].join(' ');
    if (words.every((t) => hay.includes(t) || hay.includes(t.replace(/[-/]/g, '')))) {
      out.push(u.name);
      if (out.length >= limit) break;
    }
  }
  return out;
}
