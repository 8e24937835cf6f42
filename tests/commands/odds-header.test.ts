import { ApplicationCommandOptionType } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { SYSTEM_MODULES } from '../../commands/systems.js';
import { actionOf, type Actor, type Reply } from '../../src/core/command.js';
import { NOT_ODDS } from '../../src/core/odds-entry.js';
import type { OptionSpec } from '../../src/core/options.js';
import { ConsoleSession } from '../../src/console/session.js';
import { alice, expectError, expectMessage, fieldsText, subcommand, testApp, type TestApp } from '../helpers/app.js';

// /odds answers for a roll before it is made: its header must name every input that changed the
// odds, as the roll's own reply does, and it must take every option of the roll that can.

let app: TestApp;
afterEach(() => app?.ledger.close());

/** A console line's answer, as its --json output. */
const jsonOf = async (s: ConsoleSession, line: string) => ((await s.run(line)) as { json: Record<string, any> }).json as { ok: boolean; error?: string };

const ENTRIES = SYSTEM_MODULES.flatMap((s) => Object.entries(s.odds).map(([name, entry]) => ({ system: s, name, entry })));

/** A roll as typed in `roll:`, each value quoted so a space stays in it. */
const typed = (name: string, o: Record<string, unknown>) => [name, ...Object.entries(o).map(([k, v]) => `${k}:"${String(v)}"`)].join(' ');

/** Each system's game in a channel of its own, with one roster unit, so `unit` is swept as a roster unit too. */
const GAMES: Record<string, { channel: string; unit: string; fields: Record<string, unknown> }> = {
  'hearts-of-tin': { channel: 'hot', unit: 'Garde', fields: { quality: 'elite', original: 6, disorder: 3 } },
  'lightning-war': { channel: 'lw', unit: 'Panzer', fields: { morale: 'resolved', original: 5, casualties: 3, unit_type: 'armored_vehicle' } },
  asl: { channel: 'asl', unit: 'Ivan', fields: { counter: 'Russian 4-4-7', broken: true } },
};

/**
 * The rolls each entry is swept from (a rally-only option needs a rally to be read at all), and a
 * few values for each text option: every other option's values come from its own declaration.
 */
const PLAN: Record<string, { bases: Record<string, unknown>[]; samples: Record<string, string[]> }> = {
  rally: { bases: [{ disorder: 2 }, { disorder: 1, quality: 'militia', commander_near: true }], samples: { unit: ['Garde', 'Somebody'] } },
  morale: {
    bases: [{ morale: 'professional' }, { morale: 'leery', rally: true }, { morale: 'professional', state: 'routing' }],
    samples: { casualties: ['1/5', '2/5', '3/5', '4/5'], unit: ['Panzer'] },
  },
  mc: {
    bases: [
      { unit: 'German 4-6-7' },
      { unit: 'German 4-4-7', check: 'rally', leader_drm: 0, broken: true },
      { unit: 'German 4-4-7', check: 'rally', self_rally: 'later', broken: true },
      { unit: 'German 8-1' },
    ],
    samples: { unit: ['Ivan', 'Russian 4-4-7', 'Japanese 4-4-7', 'German 5-5-5'] },
  },
  hob: {
    bases: [{ unit: 'German 4-6-7' }, { unit: 'German 5-5-5', class: 'elite' }],
    samples: { unit: ['Ivan', 'Russian 4-4-7', 'Japanese 4-4-7'] },
  },
};

/** The values to try for an option, from what it declares (its choices, its range), or the plan's samples. */
function valuesOf(name: string, spec: OptionSpec<unknown>, samples: Record<string, string[]>): unknown[] {
  const slash = spec.toSlash(name) as { type: number; choices?: { value: string }[]; min_value?: number; max_value?: number };
  if (slash.type === ApplicationCommandOptionType.Boolean) return [true, false];
  if (slash.type === ApplicationCommandOptionType.Integer) {
    const [lo, hi] = [slash.min_value!, slash.max_value!];
    return [...new Set([lo, lo + 1, Math.round((lo + hi) / 2), hi - 1, hi])];
  }
  if (slash.choices) return slash.choices.map((c) => c.value);
  if (spec.suggest) return spec.suggest('');
  const given = samples[name];
  if (!given) throw new Error(`no values to sweep \`${name}\` with: add some to the plan`);
  return given;
}

/** The header (title and the line before the table) and the table of an odds reply; undefined when refused. */
function read(reply: Reply): { header: string; table: string } | undefined {
  if (reply.type === 'error') return undefined;
  const { title, description = '' } = expectMessage(reply).embed;
  const at = description.indexOf('```');
  return { header: `${title}\n${description.slice(0, at)}`, table: description.slice(at) };
}

async function withGames(): Promise<Record<string, Actor>> {
  app = testApp();
  const actors: Record<string, Actor> = {};
  for (const [system, g] of Object.entries(GAMES)) {
    const actor = { ...alice, channelId: g.channel };
    expectMessage(await subcommand(app, actor, 'game', 'start', { system, name: g.channel }));
    expectMessage(await subcommand(app, actor, 'unit', 'add', { name: g.unit, fields: fieldsText(g.fields) }));
    actors[system] = actor;
  }
  return actors;
}

describe('the /odds header names every input that changed the odds', () => {
  it('sweeps every option of every odds entry: a value that changes the odds changes the header', async () => {
    const actors = await withGames();
    const ask = async (system: string, roll: string) =>
      read(await app.router.handle({ type: 'command', name: 'odds', options: { roll }, actor: actors[system]! }));
    const silent: string[] = [];
    let compared = 0;
    for (const { system, name, entry } of ENTRIES) {
      const plan = PLAN[name];
      expect(plan, `a sweep plan for /odds ${name}`).toBeDefined();
      for (const base of plan!.bases) {
        const before = await ask(system.id, typed(name, base));
        expect(before, `${typed(name, base)} reads`).toBeDefined();
        for (const [option, spec] of Object.entries(entry.options as Record<string, OptionSpec<unknown>>)) {
          for (const value of valuesOf(option, spec, plan!.samples)) {
            const roll = typed(name, { ...base, [option]: value });
            const after = await ask(system.id, roll);
            if (!after) continue;
            compared++;
            if (after.table !== before!.table && after.header === before!.header) silent.push(`${roll} (against ${typed(name, base)})`);
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(300);
    expect(silent).toEqual([]);
  }, 120_000);

  it.each([
    ['en', 'Odds · Rally roll', '2 disorder markers · regular · joined by a band · no enemy within 24" · no commander re-roll'],
    [
      'de',
      'Chancen · Sammelwurf',
      '2 Unordnungsmarker · regulär · von einer Kapelle begleitet · kein Feind innerhalb 24" · keine Wiederholung durch den Kommandeur',
    ],
    [
      'fr',
      'Chances · Jet de ralliement',
      '2 marqueurs de désordre · régulière · accompagnée d’une musique · aucun ennemi à 24" ou moins · pas de relance du commandant',
    ],
  ])('a rally in %s: the band and no enemy within 24"', async (locale, title, situation) => {
    app = testApp();
    const r = expectMessage(
      await app.router.handle({ type: 'command', name: 'odds', options: { roll: 'rally disorder:2 band:true enemy_in_sight:false' }, actor: alice, locale }),
    );
    expect(r.embed.title).toBe(title);
    expect(r.embed.description!.split('\n')[0]).toBe(situation);
  });

  const MORALE = 'morale morale:leery casualties:2/5 cover:soft near_kill:true commander:true immobilized:true reserve_move:true';
  it.each([
    ['en', 'morale check · infantry · leery morale · 2/5 lost · soft cover · immobilized · Near Kill this turn · reserve movement · commander within 100 m'],
    [
      'de',
      'Moraltest · Infanterie · Moral zögerlich · 2/5 verloren · leichte Deckung · bewegungsunfähig · Beinahe-Abschuss in dieser Runde · Reservebewegung · Kommandeur innerhalb 100 m',
    ],
    [
      'fr',
      'test de moral · infanterie · moral hésitant · 2/5 perdus · couvert léger · immobilisé · quasi-destruction ce tour · mouvement de réserve · commandant à 100 m ou moins',
    ],
  ])('a morale check in %s: casualties, cover, Near Kill, commander, immobilized, reserve move; the roll says the same', async (locale, situation) => {
    app = testApp();
    const odds = expectMessage(await app.router.handle({ type: 'command', name: 'odds', options: { roll: MORALE }, actor: alice, locale }));
    expect(odds.embed.description!.split('\n')[0]).toBe(situation);
    // −2 leery −2 casualties +2 soft −3 Near Kill +2 commander −2 immobilized −2 reserve: −7, so 3d6 of 18 reads 11 (firm).
    app.dice.push(6, 6, 6);
    const options = Object.fromEntries(
      MORALE.split(' ')
        .slice(1)
        .map((p) => p.split(':') as [string, string]),
    );
    const typedOptions = { ...options, near_kill: true, commander: true, immobilized: true, reserve_move: true };
    const roll = expectMessage(await app.router.handle({ type: 'command', name: 'morale', options: typedOptions, actor: alice, locale }));
    expect(roll.embed.description).toBe(situation);
    expect(roll.record!.steps).toMatchObject([{ dice: [6, 6, 6], original: 18, final: 11, result: 'firm' }]);
  });
});

describe('/odds takes every option of the roll that can change the odds', () => {
  it('each option of each command with an odds entry is the entry’s own, or declared to change no chance', () => {
    const missing: string[] = [];
    for (const { system, name, entry } of ENTRIES) {
      const roll = system.commands.find((c) => c.name === name);
      expect(roll, `/${name} is a command of ${system.id}`).toBeDefined();
      for (const [option, spec] of Object.entries(actionOf(roll!)!.options)) {
        if (Object.hasOwn(NOT_ODDS, option)) expect(entry.options[option], `${name} ${option}`).toBeUndefined();
        else if (entry.options[option] !== spec) missing.push(`${name} ${option}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it.each([
    ['en', 'Odds · Morale Check · German 4-6-7', 'NMC · berserk'],
    ['de', 'Chancen · Morale Check · German 4-6-7', 'NMC · berserk'],
    ['fr', 'Chances · Morale Check · German 4-6-7', 'NMC · berserk'],
  ])('mc status:berserk in %s: ML 10, never broken, an Original 12 eliminates it', async (locale, title, situation) => {
    app = testApp();
    const r = expectMessage(
      await app.router.handle({ type: 'command', name: 'odds', options: { roll: 'mc unit:"German 4-6-7" status:berserk' }, actor: alice, locale }),
    );
    expect(r.embed.title).toBe(title);
    expect(r.embed.description!.split('\n')[0]).toMatch(new RegExp(`^${situation} · `));
    // A berserk unit checks against ML 10 and takes no HoB DR (A15.42): 2–10 pass (33/36), 11 is
    // Casualty Reduction (2/36), an Original 12 eliminates the MMC (1/36).
    const table = r.embed.description!.split('```')[1]!;
    expect(table.match(/ (\d+\/\d+) /g)!.map((f) => f.trim())).toEqual(['11/12', '1/18', '1/36']);
  });
});

describe('/odds with the roll unquoted', () => {
  it.each([
    [
      'en',
      '`disorder` is not an option of /odds: its options are roll. If `disorder:2` is part of `roll`, put the whole value of `roll` in quotes: `roll:"rally disorder:2 quality:militia"`.',
    ],
    [
      'de',
      '`unordnung` ist keine Option von /chancen: seine Optionen sind wurf. Gehört `disorder:2` zu `wurf`, setze den ganzen Wert von `wurf` in Anführungszeichen: `wurf:"rally disorder:2 quality:militia"`.',
    ],
    [
      'fr',
      '`désordre` n’est pas une option de /chances\u202f: ses options sont jet. Si `disorder:2` fait partie de `jet`, mets toute la valeur de `jet` entre guillemets\u202f: `jet:"rally disorder:2 quality:militia"`.',
    ],
  ])('%s: the refusal says to put the whole roll in quotes, and the quoted roll is answered', async (locale, message) => {
    app = testApp();
    const session = new ConsoleSession(app.router, alice, undefined, locale);
    expect(await jsonOf(session, '/odds roll:rally disorder:2 quality:militia')).toMatchObject({ ok: false, error: message });
    const quoted = /`[^`]+:("rally[^`]+")`/.exec(message)![1];
    expect((await jsonOf(session, `/odds roll:${quoted}`)).ok).toBe(true);
    session.close();
    // The same options straight to the router: the hint does not depend on the console.
    expect(
      expectError(
        await app.router.handle({ type: 'command', name: 'odds', options: { roll: 'rally', disorder: 2, quality: 'militia' }, actor: alice, locale }),
      ),
    ).toBe(message);
  });
});
