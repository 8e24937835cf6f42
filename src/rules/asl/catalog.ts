import fs from 'node:fs';
import { z } from 'zod';

/** The ASL units the bot knows: nationalities, squad ladders and leader ladders, from units.json. */

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

const fileSchema = z.object({
  nationalities: z.record(
    z.string().regex(/^[a-z_]+$/),
    z.object({
      name: z.string(),
      aliases: z.array(z.string()),
      hob_drm: z.number().int(),
      leaders: z.string(),
    }),
  ),
  leader_ladders: z.record(z.string(), z.array(z.string().regex(LEADER)).min(1)),
  fanatic_on_hardening: z.object({
    nationalities: z.array(z.string()),
    tags: z.array(z.string()),
    classes_by_nationality: z.record(z.string(), z.array(z.enum(CLASSES))),
  }),
  ladders: z.array(
    z.object({
      nationality: z.string(),
      tags: z.array(z.string()).optional(),
      note: z.string().optional(),
      broken_ml_bonus: z.number().int().optional(),
      steps: z.array(z.object({ squad: z.string().regex(MMC), half_squad: z.string().regex(MMC).optional(), class: z.enum(CLASSES) })).min(1),
    }),
  ),
});

export type Size = 'squad' | 'half_squad' | 'leader';

/** A unit of the data: an MMC (squad or half-squad) or a leader. */
export type KnownUnit = {
  nationality: string;
  size: Size;
  counter: string;
  /** MMC class; leaders count as elite for Heat of Battle but have no class. */
  class: UnitClass | undefined;
  ml: number;
  brokenMl: number;
  /** Leaders only: the leadership DRM (8-1 → −1, 6+1 → +1). */
  leadership: number | undefined;
  tags: string[];
  /** Battle hardening: the next unit up, Fanatic, or (a ladder's non-elite top) not in the data. */
  up: KnownUnit | 'fanatic' | undefined;
  /** ELR replacement: the next unit down, if any. */
  down: KnownUnit | undefined;
  /** Casualty reduction of a squad: its half-squad. */
  half: KnownUnit | undefined;
};

export type Nationality = { key: string; name: string; aliases: string[]; hobDrm: number; leaders: string };

export type Catalog = {
  nationalities: Map<string, Nationality>;
  units: KnownUnit[];
};

export const unitName = (nationalities: Map<string, Nationality>, u: { nationality: string; counter: string; tags: string[] }) => {
  const nat = nationalities.get(u.nationality)?.name ?? u.nationality;
  const tag = u.tags.includes('ss') ? ' SS' : u.tags.includes('nkvd') ? ' NKVD' : u.tags.includes('volksgrenadier') ? ' VG' : '';
  return `${nat}${tag} ${u.counter}`;
};

/** An MMC's ML is its last number (4-6-7 → 7); a leader's is his first (8-1 → 8). */
function mlOf(counter: string, size: Size): number {
  const parts = counter.split(/[-+]/).map(Number);
  return size === 'leader' ? parts[0]! : parts.at(-1)!;
}

/** Reads and checks a units file; a bad file stops start-up with the path of the bad entry. */
export function loadCatalog(file: URL | string): Catalog {
  const parsed = fileSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    throw new Error(`ASL units file ${String(file)}: ${i.path.join('.')}: ${i.message}`);
  }
  const data = parsed.data;
  const nationalities = new Map<string, Nationality>();
  for (const [key, n] of Object.entries(data.nationalities)) {
    if (!data.leader_ladders[n.leaders]) throw new Error(`ASL units file: ${key} uses unknown leader ladder ${n.leaders}`);
    nationalities.set(key, { key, name: n.name, aliases: n.aliases.map((a) => a.toLowerCase()), hobDrm: n.hob_drm, leaders: n.leaders });
  }
  const units: KnownUnit[] = [];
  const keyOf = (nat: string, size: Size, counter: string, tags: string[], cls: UnitClass | undefined) =>
    `${nat}|${size}|${counter}|${[...tags].sort().join(',')}|${cls ?? ''}`;
  const byKey = new Map<string, KnownUnit>();
  const fan = data.fanatic_on_hardening;
  const hardensToFanatic = (nat: string, cls: UnitClass | undefined, tags: string[]) =>
    cls === 'elite' ||
    fan.nationalities.includes(nat) ||
    tags.some((t) => fan.tags.includes(t)) ||
    (cls !== undefined && (fan.classes_by_nationality[nat] ?? []).includes(cls));

  // The same counter may sit on two ladders (Italian 4-4-7): it is one unit, first ladder first.
  const get = (nat: string, size: Size, counter: string, tags: string[], cls: UnitClass | undefined, bonus: number, leadership?: number) => {
    const k = keyOf(nat, size, counter, tags, cls);
    let u = byKey.get(k);
    if (!u) {
      const ml = mlOf(counter, size);
      u = { nationality: nat, size, counter, class: cls, ml, brokenMl: Math.min(10, ml + bonus), leadership, tags, up: undefined, down: undefined, half: undefined };
      byKey.set(k, u);
      units.push(u);
    }
    return u;
  };

  for (const ladder of data.ladders) {
    if (!nationalities.has(ladder.nationality)) throw new Error(`ASL units file: unknown nationality ${ladder.nationality}`);
    const tags = ladder.tags ?? [];
    const bonus = ladder.broken_ml_bonus ?? 0;
    for (const size of ['squad', 'half_squad'] as const) {
      let prev: KnownUnit | undefined;
      for (const step of ladder.steps) {
        const counter = size === 'squad' ? step.squad : step.half_squad;
        if (!counter) {
          prev = undefined;
          continue;
        }
        const u = get(ladder.nationality, size, counter, tags, step.class, bonus);
        if (prev) {
          prev.up ??= u;
          u.down ??= prev;
        }
        prev = u;
      }
    }
    for (const step of ladder.steps) {
      if (!step.half_squad) continue;
      const squad = byKey.get(keyOf(ladder.nationality, 'squad', step.squad, tags, step.class))!;
      squad.half ??= byKey.get(keyOf(ladder.nationality, 'half_squad', step.half_squad, tags, step.class));
    }
  }
  for (const n of nationalities.values()) {
    const ladder = data.leader_ladders[n.leaders]!;
    let prev: KnownUnit | undefined;
    for (const counter of ladder) {
      const [, sign, drm] = /^\d+([+-])(\d)$/.exec(counter)!;
      const leadership = sign === '+' ? Number(drm) : -Number(drm);
      const u = get(n.key, 'leader', counter, [], undefined, 0, leadership);
      if (prev) {
        prev.up = u;
        u.down = prev;
      }
      prev = u;
    }
    // The best leader hardens to Fanatic.
    if (prev) prev.up = 'fanatic';
  }
  // Elite MMC and the groups the data names become Fanatic instead of swapping.
  for (const u of units) {
    if (u.size !== 'leader' && hardensToFanatic(u.nationality, u.class, u.tags)) u.up = 'fanatic';
  }
  return { nationalities, units };
}

export const DEFAULT_UNITS_FILE = new URL('./units.json', import.meta.url);

let cached: Catalog | undefined;
/** The bundled catalog, read once. */
export function catalog(): Catalog {
  return (cached ??= loadCatalog(DEFAULT_UNITS_FILE));
}
