import { CLASS_NAMES, catalog, unitName, type Catalog, type KnownUnit, type Size, type UnitClass } from './catalog.js';

/** Unit kinds that never take a Heat of Battle DR, with the reason the reply gives (A15.1). */
export const EXEMPT_KINDS = {
  crew: 'crews, inherent or temporary, are not subject to Heat of Battle',
  hero: 'heroes (and heroic leaders) are not subject to Heat of Battle',
  cavalry: 'cavalry is not subject to Heat of Battle',
  unarmed: 'unarmed units are not subject to Heat of Battle',
  prc: 'passengers, riders and vehicle crews (PRC) are not subject to Heat of Battle',
} as const;
export type ExemptKind = keyof typeof EXEMPT_KINDS;

const KIND_WORDS: Record<string, ExemptKind> = {
  crew: 'crew', crews: 'crew',
  hero: 'hero', heroes: 'hero', heroic: 'hero',
  cavalry: 'cavalry', cav: 'cavalry',
  unarmed: 'unarmed',
  prc: 'prc', passenger: 'prc', passengers: 'prc', rider: 'prc', riders: 'prc',
};

/** Words that name a sub-type, and the nationality they imply. */
const TAG_WORDS: Record<string, { tag: string; nationality: string }> = {
  ss: { tag: 'ss', nationality: 'german' },
  nkvd: { tag: 'nkvd', nationality: 'russian' },
  vg: { tag: 'volksgrenadier', nationality: 'german' },
  volksgrenadier: { tag: 'volksgrenadier', nationality: 'german' },
  volksgrenadiers: { tag: 'volksgrenadier', nationality: 'german' },
  smg: { tag: 'smg', nationality: 'axis_minor' },
};

/** Words that name a class ("Finnish 2-3-8 half-squad (green)"). */
const CLASS_WORDS: Record<string, UnitClass> = {
  conscript: 'conscript', green: 'green', elite: 'elite',
  '2nd': 'second_line', second: 'second_line', second_line: 'second_line',
  '1st': 'first_line', first: 'first_line', first_line: 'first_line',
};

/** Words players add that say nothing the counter does not. */
const FILLER = new Set(['squad', 'squads', 'hs', 'half', 'halfsquad', 'half-squad', 'mmc', 'leader', 'sml', 'smc', 'unit', 'the', 'a', 'line']);

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

export type ParseOptions = { nationality?: string | undefined; class?: UnitClass | undefined; tag?: string | undefined };

const LEADER_COUNTER = /^(10|[6-9])([+-])([0-3])$/;
const MMC_COUNTER = /^(\d)-(\d)-(\d{1,2})$|^(\d)(\d)(\d)$/;

function readCounter(raw: string): { counter: string; leader: boolean; numbers: number[] } | undefined {
  const t = raw.replace(/[–—]/g, '-').replace(/\s+/g, '');
  const l = LEADER_COUNTER.exec(t);
  if (l && (t.includes('+') || t.includes('-'))) {
    const [, ml, sign, drm] = l as unknown as [string, string, string, string];
    return { counter: `${ml}${sign}${drm}`, leader: true, numbers: [Number(ml), Number(sign + drm)] };
  }
  const m = MMC_COUNTER.exec(t);
  if (m) {
    const [a, b, c] = (m[1] ? m.slice(1, 4) : m.slice(4, 7)) as [string, string, string];
    return { counter: `${a}-${b}-${c}`, leader: false, numbers: [Number(a), Number(b), Number(c)] };
  }
  return undefined;
}

function nationalityFor(cat: Catalog, words: string): string | undefined {
  for (const n of cat.nationalities.values()) {
    if (words === n.key.replace('_', ' ') || words === n.name.toLowerCase() || n.aliases.includes(words)) return n.key;
  }
  return undefined;
}

export const describeNationalities = (cat: Catalog = catalog()) =>
  [...cat.nationalities.values()].map((n) => n.key).join(', ');

/** "German 4-6-7", with the size spelled out for half-squads and leaders. */
export function displayName(cat: Catalog, u: { nationality: string; counter: string; tags: string[]; size: Size }) {
  const base = unitName(cat.nationalities, u);
  return u.size === 'half_squad' ? `${base} half-squad` : u.size === 'leader' ? `${base} leader` : base;
}

function closest(cat: Catalog, nationality: string | undefined, numbers: number[], leader: boolean): string[] {
  const scored = cat.units.map((u) => {
    const theirs = u.counter.split(/(?=[+-])|-/).map(Number);
    const size = (u.size === 'leader') === leader ? 0 : 1000;
    const nat = nationality && u.nationality !== nationality ? 100 : 0;
    const diff = numbers.reduce((a, n, i) => a + Math.abs(n - (theirs[i] ?? 0)), 0) + (theirs.length !== numbers.length ? 20 : 0);
    return { u, score: diff + size + nat };
  });
  scored.sort((a, b) => a.score - b.score);
  return [...new Set(scored.slice(0, 5).map((s) => unitName(cat.nationalities, s.u.size === 'leader' ? s.u : s.u)))];
}

/**
 * Reads a unit as players write it ("German 4-6-7", "ge 467", "Russian 2-2-7", "British 8-1",
 * "SS 6-5-8", "German crew"). Returns the unit, or the sentence saying what is wrong.
 */
export function parseUnit(text: string, opts: ParseOptions = {}, cat: Catalog = catalog()): AslUnit | string {
  const lower = text.toLowerCase().replace(/[_()]/g, ' ').trim();
  const counterMatch = /\d[\d\s+\-–—]*/.exec(lower);
  const counter = counterMatch ? readCounter(counterMatch[0].trim()) : undefined;
  if (counterMatch && !counter) return `"${counterMatch[0].trim()}" is not a counter: write a squad as 4-6-7 and a leader as 8-1 or 6+1`;
  const rest = (counterMatch ? lower.replace(counterMatch[0], ' ') : lower).split(/\s+/).filter(Boolean);

  let kind: ExemptKind | undefined;
  const tags = new Set<string>(opts.tag ? [opts.tag] : []);
  let impliedNationality: string | undefined;
  const words: string[] = [];
  let wordClass: UnitClass | undefined;
  for (const w of rest) {
    if (KIND_WORDS[w]) kind = KIND_WORDS[w];
    else if (CLASS_WORDS[w]) wordClass = CLASS_WORDS[w];
    else if (TAG_WORDS[w]) {
      tags.add(TAG_WORDS[w].tag);
      impliedNationality = TAG_WORDS[w].nationality;
    } else if (!FILLER.has(w)) words.push(w);
  }
  if (wordClass && opts.class && wordClass !== opts.class) return `the unit says ${wordClass} but \`class\` is ${opts.class}`;
  opts = { ...opts, class: opts.class ?? wordClass };
  let nationality: string | undefined;
  // Every remaining word must belong to a nationality ("axis minor" is two words).
  for (let i = 0; i < words.length; ) {
    const two = i + 1 < words.length ? nationalityFor(cat, `${words[i]} ${words[i + 1]}`) : undefined;
    const found = two ?? nationalityFor(cat, words[i]!);
    if (!found) return `"${words[i]}" is not a nationality the bot knows (${describeNationalities(cat)})`;
    if (nationality && found !== nationality) return `the unit names two nationalities (${nationality}, ${found})`;
    nationality = found;
    i += two ? 2 : 1;
  }
  if (nationality && opts.nationality && nationality !== opts.nationality) {
    return `the unit says ${cat.nationalities.get(nationality)!.name} but \`nationality\` is ${opts.nationality}`;
  }
  nationality ??= opts.nationality ?? impliedNationality;
  if (!nationality) return `name the nationality, in the unit ("German 4-6-7") or with \`nationality\``;
  const natName = cat.nationalities.get(nationality)?.name;
  if (!natName) return `"${nationality}" is not a nationality the bot knows (${describeNationalities(cat)})`;

  if (kind) {
    const numbers = counter?.numbers;
    return {
      name: `${natName} ${kind}${counter ? ` ${counter.counter}` : ''}`,
      nationality,
      kind,
      counter: counter?.counter,
      class: opts.class,
      ml: numbers ? numbers.at(-1) : undefined,
      brokenMl: numbers ? numbers.at(-1) : undefined,
      leadership: undefined,
      tags: [...tags],
      known: undefined,
    };
  }
  if (!counter) return `give the counter, e.g. "${natName} 4-6-7" for a squad or "${natName} 8-1" for a leader`;

  const size: Size[] = counter.leader ? ['leader'] : ['squad', 'half_squad'];
  let matches = cat.units.filter((u) => u.nationality === nationality && size.includes(u.size) && u.counter === counter.counter);
  if (opts.class) {
    const ofClass = matches.filter((u) => u.class === opts.class || u.size === 'leader');
    if (matches.length && !ofClass.length) {
      return `${natName} ${counter.counter} is ${matches.map((u) => CLASS_NAMES[u.class!]).join(' or ')} in the data, not ${CLASS_NAMES[opts.class]}`;
    }
    matches = ofClass;
  }
  // Without a sub-type word, prefer the plain unit (German 2-3-7 is 2nd Line, not the VG half-squad).
  const tagged = matches.filter((u) => [...tags].every((t) => u.tags.includes(t)));
  const plain = tagged.filter((u) => u.tags.every((t) => tags.has(t)));
  const pick = plain.length ? plain : tagged;
  if (pick.length > 1) {
    const classes = pick.map((u) => `class:${u.class}`).join(' or ');
    return `${natName} ${counter.counter} is more than one unit in the data (${pick.map((u) => `${CLASS_NAMES[u.class!]} ${u.size.replace('_', '-')}`).join(', ')}): add ${classes}`;
  }
  const known = pick[0];
  if (known) {
    return {
      name: displayName(cat, known),
      nationality,
      kind: known.size,
      counter: known.counter,
      class: known.class,
      ml: known.ml,
      brokenMl: known.brokenMl,
      leadership: known.leadership,
      tags: known.tags,
      known,
    };
  }
  if (counter.leader) {
    return {
      name: `${natName} ${counter.counter} leader`,
      nationality,
      kind: 'leader',
      counter: counter.counter,
      class: undefined,
      ml: counter.numbers[0],
      brokenMl: counter.numbers[0],
      leadership: counter.numbers[1],
      tags: [...tags],
      known: undefined,
    };
  }
  if (!opts.class) {
    return `${natName} ${counter.counter} is not in the unit data. Closest known: ${closest(cat, nationality, counter.numbers, false).join(', ')}. To roll it anyway, give its \`class\``;
  }
  const ml = counter.numbers[2]!;
  return {
    name: `${natName} ${counter.counter}`,
    nationality,
    kind: 'squad',
    counter: counter.counter,
    class: opts.class,
    ml,
    brokenMl: ml,
    leadership: undefined,
    tags: [...tags],
    known: undefined,
  };
}

/** Known unit names matching what a player has typed so far, for autocomplete. */
export function suggestUnits(typed: string, limit = 25, cat: Catalog = catalog()): string[] {
  const tokens = typed.toLowerCase().replace(/[–—]/g, '-').split(/\s+/).filter(Boolean);
  const out: string[] = [];
  for (const u of cat.units) {
    const n = cat.nationalities.get(u.nationality)!;
    let label = displayName(cat, u);
    // Two data entries with one counter (Finnish 2-3-8 half-squads) are told apart by class.
    const twins = cat.units.filter((o) => o !== u && o.nationality === u.nationality && o.size === u.size && o.counter === u.counter && o.tags.join() === u.tags.join());
    if (twins.length && u.class) label += ` (${u.class.replace('_line', '')})`;
    const hay = [label.toLowerCase(), n.key, ...n.aliases, u.counter.replace(/-/g, '')].join(' ');
    if (tokens.every((t) => hay.includes(t) || hay.includes(t.replace(/-/g, '')))) {
      out.push(label);
      if (out.length >= limit) break;
    }
  }
  return out;
}
