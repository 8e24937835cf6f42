import fs from 'node:fs';
import { z } from 'zod';
import { own } from '../../util/own.js';

/**
 * The ASL units the bot knows (units.json): every squad with its
 * Class, both Morale Levels, its half-squad, its battle-hardening and ELR steps, and the leader ranks.
 */

export const CLASSES = ['conscript', 'green', 'second_line', 'first_line', 'elite'] as const;
export type UnitClass = (typeof CLASSES)[number];
export const CLASS_NAMES: Record<UnitClass, string> = {
  conscript: 'Conscript',
  green: 'Green',
  second_line: '2nd Line',
  first_line: '1st Line',
  elite: 'Elite',
};

const MMC = /^[0-9]-[0-9]-[0-9]{1,2}$/;
const LEADER = /^(?:[6-9]|10)[+-][0-3]$/;
const ML = z.number().int().min(1).max(10);
const classDeltas = z.partialRecord(z.enum(CLASSES), z.number().int().min(-3).max(3));

const fileSchema = z.object({
  nationalities: z.record(
    z.string().regex(/^[a-z_]+$/),
    z.object({
      name: z.string(),
      aliases: z.array(z.string()),
      hob_drm: z.number().int(),
      leaders: z.string(),
      broken_ml_by_class: classDeltas.optional(),
      /** Counters of this nationality whose broken side differs from their class's rule (pre-6/42 Americans, G17.2). */
      broken_ml_by_counter: z.record(z.string().regex(MMC), z.number().int().min(-3).max(3)).optional(),
    }),
  ),
  tag_broken_ml: z.record(z.string(), z.number().int()),
  /** A sub-type's broken-side difference that holds only for some classes (Polish elite and 1st Line). */
  tag_broken_ml_by_class: z.record(z.string(), classDeltas),
  leader_ladders: z.record(z.string(), z.array(z.string().regex(LEADER)).min(1)),
  fanatic_on_hardening: z.object({
    nationalities: z.array(z.string()),
    tags: z.array(z.string()),
    classes_by_nationality: z.record(z.string(), z.array(z.enum(CLASSES))),
    tags_by_nationality: z.record(z.string(), z.array(z.string())),
  }),
  squads: z.array(
    z.object({
      nationality: z.string(),
      class: z.enum(CLASSES),
      squad: z.string().regex(MMC),
      ml: ML,
      /** null: no broken side (Japanese squads, G1.1). */
      broken_ml: ML.nullable(),
      half_squad: z.string().regex(MMC),
      half_squad_broken_ml: ML,
      reduced: z.string().regex(MMC).optional(),
      tags: z.array(z.string()).optional(),
      up: z.string().optional(),
      down: z.string().optional(),
      underscored: z.boolean().optional(),
      elr: z.number().int().min(0).max(5).optional(),
      note: z.string().optional(),
    }),
  ),
});

export type Size = 'squad' | 'half_squad' | 'leader';

/** A unit of the data: an MMC (squad, reduced squad or half-squad) or a leader. */
export type KnownUnit = {
  nationality: string;
  size: Size;
  counter: string;
  /** The name players see and the parser reads back ("Finnish 2-3-8 half-squad (Green)"). */
  name: string;
  /** MMC class; leaders count as elite for Heat of Battle but have no class. */
  class: UnitClass | undefined;
  ml: number;
  /** The broken side's ML; undefined where the counter has none (Japanese squads, G1.1). */
  brokenMl: number | undefined;
  /** Leaders only: the leadership DRM (8-1 → −1, 6+1 → +1). */
  leadership: number | undefined;
  tags: string[];
  /** A Japanese squad's Reduced-Strength side (G1.1). */
  reduced: boolean;
  /** Underscored ML: ELR failure gives two broken HS, or Disrupts a HS (A19.13). */
  underscored: boolean;
  /** An ELR the counter always has (A1.23): 5 for underscored MLs and Partisans. */
  elr: number | undefined;
  /** Battle hardening: the next unit up, Fanatic, or (a ladder's non-elite top) not in the data. */
  up: KnownUnit | 'fanatic' | undefined;
  /** ELR Replacement: the next unit down, if any. */
  down: KnownUnit | undefined;
  /** Casualty Reduction or Step Reduction: a squad's half-squad. */
  half: KnownUnit | undefined;
  /** A full Japanese squad's reduced side; a reduced side's full squad. */
  flip: KnownUnit | undefined;
};

export type Nationality = {
  key: string;
  name: string;
  aliases: string[];
  hobDrm: number;
  leaders: string;
  /** Broken-side ML minus good-order ML for a squad of this class outside the data. */
  brokenMlByClass: Partial<Record<UnitClass, number>>;
  /** The same, for named counters that keep a rule of their own, whatever their class. */
  brokenMlByCounter: Record<string, number>;
};

export type FanaticRules = z.infer<typeof fileSchema>['fanatic_on_hardening'];

export type Catalog = {
  nationalities: Map<string, Nationality>;
  units: KnownUnit[];
  tagBrokenMl: Record<string, number>;
  tagBrokenMlByClass: Record<string, Partial<Record<UnitClass, number>>>;
  fanatic: FanaticRules;
};

export const unitName = (nationalities: Map<string, Nationality>, u: { nationality: string; counter: string; tags: string[] }) => {
  const nat = nationalities.get(u.nationality)?.name ?? u.nationality;
  const tag = u.tags.includes('ss')
    ? ' SS'
    : u.tags.includes('nkvd')
      ? ' NKVD'
      : u.tags.includes('volksgrenadier')
        ? ' VG'
        : u.tags.includes('usmc')
          ? ' USMC'
          : '';
  return `${nat}${tag} ${u.counter}`;
};

/** An MMC's ML is its last number (4-6-7 → 7); a leader's is his first (8-1 → 8). */
function mlOf(counter: string, size: Size): number {
  const parts = counter.split(/[-+]/).map(Number);
  return size === 'leader' ? parts[0]! : parts.at(-1)!;
}

/** Battle hardening makes these Fanatic instead of swapping (A15.3, A25.13, A25.24, A25.25, A25.72, A25.84). */
export function hardensToFanatic(rules: FanaticRules, nationality: string, cls: UnitClass | undefined, tags: readonly string[]): boolean {
  return (
    cls === 'elite' ||
    rules.nationalities.includes(nationality) ||
    tags.some((t) => rules.tags.includes(t) || (rules.tags_by_nationality[nationality] ?? []).includes(t)) ||
    (cls !== undefined && (rules.classes_by_nationality[nationality] ?? []).includes(cls))
  );
}

/**
 * The broken-side ML of an MMC outside the data, from the general rules behind the counters' numbers:
 * the nationality's class difference (or its named counter's: pre-6/42 Americans break to their
 * own ML, G17.2), plus a sub-type's (SS and NKVD +1; Polish elite and 1st Line +1, back to their
 * own ML against the Allied Minor −1, A25.9); at most 10.
 */
export function derivedBrokenMl(
  cat: Catalog,
  unit: { nationality: string; class: UnitClass | undefined; tags: readonly string[]; ml: number; counter?: string },
): number {
  const n = cat.nationalities.get(unit.nationality);
  const cls = unit.class;
  const byCounter = unit.counter === undefined ? undefined : own(n?.brokenMlByCounter ?? {}, unit.counter);
  const byClass = byCounter ?? (cls ? (n?.brokenMlByClass[cls] ?? 0) : 0);
  const byTag = unit.tags.reduce((a, t) => a + (own(cat.tagBrokenMl, t) ?? 0) + (cls ? (own(cat.tagBrokenMlByClass, t)?.[cls] ?? 0) : 0), 0);
  return Math.max(1, Math.min(10, unit.ml + byClass + byTag));
}

const CLASS_SHORT: Record<UnitClass, string> = { conscript: 'Conscript', green: 'Green', second_line: '2nd Line', first_line: '1st Line', elite: 'Elite' };

type UnitsFile = z.infer<typeof fileSchema>;
type SquadRow = UnitsFile['squads'][number];
/** A squad row as read: its squad, and its reduced side if it has one. */
type ReadSquad = { row: SquadRow; squad: KnownUnit; reduced?: KnownUnit };

/** A data unit with nothing linked yet: its name, ladders and sides are filled in as the file is read. */
const blank = (nationality: string, size: Size, counter: string, cls: UnitClass | undefined, tags: string[]): KnownUnit => ({
  nationality,
  size,
  counter,
  name: '',
  class: cls,
  ml: mlOf(counter, size),
  brokenMl: undefined,
  leadership: undefined,
  tags,
  reduced: false,
  underscored: false,
  elr: undefined,
  up: undefined,
  down: undefined,
  half: undefined,
  flip: undefined,
});

function readNationalities(data: UnitsFile): Map<string, Nationality> {
  const nationalities = new Map<string, Nationality>();
  for (const [key, n] of Object.entries(data.nationalities)) {
    if (!data.leader_ladders[n.leaders]) throw new Error(`ASL units file: ${key} uses unknown leader ladder ${n.leaders}`);
    nationalities.set(key, {
      key,
      name: n.name,
      aliases: n.aliases.map((a) => a.toLowerCase()),
      hobDrm: n.hob_drm,
      leaders: n.leaders,
      brokenMlByClass: n.broken_ml_by_class ?? {},
      brokenMlByCounter: n.broken_ml_by_counter ?? {},
    });
  }
  return nationalities;
}

/** Every squad row as its squad, its half-squad and its reduced side, pushed to `units`. */
function readSquads(data: UnitsFile, nationalities: Map<string, Nationality>, units: KnownUnit[]): ReadSquad[] {
  // A half-squad shared by two squads of one class (German 2-3-7) is one unit.
  const halves = new Map<string, KnownUnit>();
  const squads: ReadSquad[] = [];
  for (const row of data.squads) {
    if (!nationalities.has(row.nationality)) throw new Error(`ASL units file: unknown nationality ${row.nationality}`);
    const tags = row.tags ?? [];
    const common = { underscored: row.underscored ?? false, elr: row.elr };
    if (mlOf(row.squad, 'squad') !== row.ml) throw new Error(`ASL units file: ${row.nationality} ${row.squad} has ML ${row.ml}, not its last number`);
    const squad: KnownUnit = { ...blank(row.nationality, 'squad', row.squad, row.class, tags), ...common, brokenMl: row.broken_ml ?? undefined };
    const hsKey = `${row.nationality}|${row.half_squad}|${row.class}|${[...tags].sort().join(',')}`;
    let half = halves.get(hsKey);
    if (!half) {
      half = { ...blank(row.nationality, 'half_squad', row.half_squad, row.class, tags), ...common, brokenMl: row.half_squad_broken_ml };
      halves.set(hsKey, half);
      units.push(half);
    } else if (half.brokenMl !== row.half_squad_broken_ml) {
      throw new Error(`ASL units file: ${row.nationality} ${row.half_squad} half-squad has two broken MLs`);
    }
    squad.half = half;
    units.push(squad);
    let reduced: KnownUnit | undefined;
    if (row.reduced) {
      reduced = { ...blank(row.nationality, 'squad', row.reduced, row.class, tags), ...common, reduced: true, half };
      squad.flip = reduced;
      reduced.flip = squad;
      units.push(reduced);
    }
    squads.push({ row, squad, ...(reduced ? { reduced } : {}) });
  }
  return squads;
}

/** The squads' ladders: up/down name a squad of the same nationality by counter; the untagged one where two share it. */
function linkSquadLadders(squads: ReadSquad[]): void {
  const find = (nat: string, ref: string, from: string) => {
    const [counter, ...tagWords] = ref.split(' ');
    const all = squads.filter((s) => s.row.nationality === nat && s.row.squad === counter);
    const hit = tagWords.length
      ? all.find((s) => tagWords.every((t) => s.squad.tags.includes(t)))
      : all.length === 1
        ? all[0]
        : all.find((s) => !s.squad.tags.length);
    if (!hit) throw new Error(`ASL units file: ${nat} ${from} names ${ref}, which is not a ${nat} squad`);
    return hit;
  };
  for (const s of squads) {
    const { row } = s;
    if (row.up === 'fanatic') {
      s.squad.up = 'fanatic';
      s.squad.half!.up ??= 'fanatic';
      if (s.reduced) s.reduced.up = 'fanatic';
    } else if (row.up) {
      const to = find(row.nationality, row.up, row.squad);
      s.squad.up = to.squad;
      s.squad.half!.up ??= to.squad.half;
      if (s.reduced) s.reduced.up = to.reduced;
    }
    if (row.down) {
      const to = find(row.nationality, row.down, row.squad);
      s.squad.down = to.squad;
      s.squad.half!.down ??= to.squad.half;
      if (s.reduced) s.reduced.down = to.reduced;
    }
  }
}

/** Each nationality's leaders, worst to best, linked as a ladder and pushed to `units`. */
function readLeaders(data: UnitsFile, nationalities: Map<string, Nationality>, units: KnownUnit[]): void {
  for (const n of nationalities.values()) {
    const ladder = data.leader_ladders[n.leaders]!;
    let prev: KnownUnit | undefined;
    for (const counter of ladder) {
      const [, sign, drm] = /^\d+([+-])(\d)$/.exec(counter)!;
      const u: KnownUnit = { ...blank(n.key, 'leader', counter, undefined, []), leadership: sign === '+' ? Number(drm) : -Number(drm) };
      // Leaders: the broken ML equals the ML; Japanese leaders have no broken side (G1.4).
      u.brokenMl = n.key === 'japanese' ? undefined : u.ml;
      units.push(u);
      if (prev) {
        prev.up = u;
        u.down = prev;
      }
      prev = u;
    }
    // The best leader hardens to Fanatic.
    if (prev) prev.up = 'fanatic';
  }
}

/** Reads and checks a units file; a bad file stops start-up with the path of the bad entry. */
export function loadCatalog(file: URL | string): Catalog {
  const parsed = fileSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    throw new Error(`ASL units file ${String(file)}: ${i.path.join('.')}: ${i.message}`);
  }
  const data = parsed.data;
  const nationalities = readNationalities(data);
  const units: KnownUnit[] = [];
  linkSquadLadders(readSquads(data, nationalities, units));
  readLeaders(data, nationalities, units);
  const cat: Catalog = {
    nationalities,
    units,
    tagBrokenMl: data.tag_broken_ml,
    tagBrokenMlByClass: data.tag_broken_ml_by_class,
    fanatic: data.fanatic_on_hardening,
  };
  for (const u of units) u.name = baseName(cat, u);
  // Two data units with one name (Finnish 2-3-8 half-squads) are told apart by their Class.
  const byName = new Map<string, KnownUnit[]>();
  for (const u of units) byName.set(u.name, [...(byName.get(u.name) ?? []), u]);
  for (const twins of byName.values()) if (twins.length > 1) for (const u of twins) u.name += ` (${CLASS_SHORT[u.class!]})`;
  return cat;
}

function baseName(cat: Catalog, u: KnownUnit) {
  const base = unitName(cat.nationalities, u);
  if (u.size === 'half_squad') return `${base} half-squad`;
  if (u.size === 'leader') return `${base} leader`;
  return u.reduced ? `${base} reduced squad` : base;
}

export const DEFAULT_UNITS_FILE = new URL('./units.json', import.meta.url);

let cached: Catalog | undefined;
/** The bundled catalog, read once. */
export function catalog(): Catalog {
  cached ??= loadCatalog(DEFAULT_UNITS_FILE);
  return cached;
}
