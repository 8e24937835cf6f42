import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { alice, command, expectError, expectMessage, rollWith, subcommand, testApp, type TestApp } from '../helpers/app.js';
import { installThrough, nervePack } from '../helpers/packs.js';

/** Defects pack authors found: each through the router, as a GM installs a pack and players roll it. */

let app: TestApp;
beforeEach(() => {
  app = testApp();
});
afterEach(() => app.ledger.close());

const packRows = () => app.ledger.history.page({ guildId: 'g1', command: 'pack', kinds: 'all' }, 50, 0).rows.length;
const inLocale = (locale: string, name: string, options: Record<string, unknown>) =>
  app.router.handle({ type: 'command', name, options, actor: alice, locale });

/** A d6 test of will: a Will of −3 to 3 adds itself to the die; 3 or less breaks. */
const willPack = () => ({
  pack: 'will-test',
  version: 1,
  name: 'Will test',
  description: 'A unit tests its will',
  options: [{ name: 'will', type: 'integer', min: -3, max: 3, default: 0 }],
  modifiers: [{ label: 'will', per: 'will', value: 1 }],
  tests: {
    check: {
      dice: '1d6',
      bands: [
        { to: 3, label: 'Breaks', tone: 'bad', effect: 'It breaks.' },
        { from: 4, label: 'Holds', tone: 'good', effect: 'It holds.' },
      ],
    },
  },
});

/** Integer options over their whole range, each adding itself times a value: `n` of them, as a pack author wrote five. */
function widePack(n: number, values: number[]) {
  const options = Array.from({ length: n }, (_, i) => ({ name: `o${i}`, type: 'integer', min: -1000, max: 1000, default: 0 }));
  return {
    ...willPack(),
    pack: `wide-${n}`,
    options,
    modifiers: options.map((o, i) => ({ label: o.name, per: o.name, value: values[i % values.length] })),
    tests: {
      check: {
        dice: '2d6',
        bands: [
          { to: 6, label: 'Breaks', tone: 'bad', effect: 'It breaks.' },
          { from: 7, label: 'Holds', tone: 'good', effect: 'It holds.' },
        ],
      },
    },
  };
}

describe('a per: modifier on a negative value', () => {
  it('counts −2 × its value, in the roll and in its odds', async () => {
    expectMessage(await installThrough(app.router, willPack()));
    // 5 with a Will of −2 is 3: it breaks (the modifier was dropped, and it held).
    const r = await rollWith(app, 'will-test', { will: -2 }, [5]);
    expect(r.embed.title).toBe('Will test — Breaks');
    expect(r.embed.fields?.find((f) => f.name === 'Modifiers')?.value).toBe('`−2` will');
    expect(r.embed.fields?.find((f) => f.name === 'Odds')?.value).toMatch(/^this result 5\/6 \(83\.3%\)/);
    const odds = expectMessage(await command(app, alice, 'will-test', { will: -2, odds_only: true }));
    expect(odds.embed.description).toContain('**Breaks** — 5/6 (83.3%)');
  });
});

describe('installing a pack: bounded work, off the event loop', () => {
  it('the five-option pack an author wrote installs (its check walked every sum pair: minutes)', async () => {
    expectMessage(await installThrough(app.router, widePack(5, [1, 3, 7, 11, 13])));
  });

  it('the check runs in a worker: the bot’s own loop answers a timer while the pack is checked, before anything is recorded', async () => {
    let rowsWhenTheTimerRan = -1;
    const installing = installThrough(app.router, widePack(5, [1, 3, 7, 11, 13]));
    setImmediate(() => {
      rowsWhenTheTimerRan = packRows();
    });
    expectMessage(await installing);
    expect([rowsWhenTheTimerRan, packRows()]).toEqual([0, 1]);
  });

  it('a pack whose enumeration is past the limit is refused, naming the test and the count', async () => {
    const message = expectError(await installThrough(app.router, widePack(20, [100, 99, 98, 97])));
    expect(message).toMatch(
      /^The pack was not installed:\n• tests\.check: checking its bands takes [\d,]+ steps over the values of "o0", .*"o19"; a pack's checks take at most 24,000,000: narrow those options' min and max$/,
    );
    expect(packRows()).toBe(0);
  });
});

describe('a pack id that is a built-in command in another language', () => {
  it.each([
    ['sammeln', '/rally, as German players see it'],
    ['chancen', '/odds, as German players see it'],
    ['ralliement', '/rally, as French players see it'],
    ['moral', '/morale, as German players see it'],
  ])('%s is refused, naming the clash', async (id, clash) => {
    const message = expectError(await installThrough(app.router, { ...nervePack(), pack: id }));
    expect(message).toBe(`The pack was not installed:\n• pack: "${id}" is a command the bot already has (${clash})`);
  });
});

describe('the bot’s words around a pack, in the reader’s language', () => {
  beforeEach(async () => {
    expectMessage(await installThrough(app.router, nervePack()));
  });

  it('a refusal: German and French, the option’s name as the pack wrote it', async () => {
    expect(expectError(await inLocale('de', 'nerve-test', {}))).toBe('/nerve-test: nerve fehlt: gib es an, oder nenne eine Einheit, die nerve hat.');
    expect(expectError(await inLocale('fr', 'nerve-test', {}))).toBe('/nerve-test\u202f: il faut nerve\u202f: donne-le, ou nomme une unité qui a nerve.');
  });

  it('odds_only: the percentages with the reader’s decimal mark, the labels as written', async () => {
    const de = expectMessage(await inLocale('de', 'nerve-test', { nerve: 7, odds_only: true }));
    expect(de.embed.description).toContain('**Holds** — 5/9 (55,6\u00a0%)');
    expect(de.embed.description).toContain('**Panic → Routs** — 1/108 (0,9\u00a0%)');
    const fr = expectMessage(await inLocale('fr', 'nerve-test', { nerve: 7, odds_only: true }));
    expect(fr.embed.description).toMatch(/\*\*Holds\*\* — 5\/9 \(55,6\s%\)/);
  });
});

describe('a pack roll shows the unit change it wrote', () => {
  beforeEach(async () => {
    expectMessage(await installThrough(app.router, nervePack()));
    expectMessage(await subcommand(app, alice, 'game', 'start', { system: 'nerve-test', name: 'Hill 112' }));
    expectMessage(await subcommand(app, alice, 'unit', 'add', { name: '1st Squad', fields: 'nerve:8 pins:2' }));
  });

  it('a field changed: "pins 2 → 3", in the reader’s language', async () => {
    // Target 8 − 2 pins = 6; 4 + 4 = 8 fails: one more pin.
    app.dice.push(4, 4);
    const r = expectMessage(await inLocale('de', 'nerve-test', { unit: '1st Squad' }));
    expect(r.embed.description?.split('\n').at(-1)).toBe('1st Squad: pins 2 → 3');
    expect(r.embed.description).toContain('von der Einheit: nerve, pins');
  });

  it('the unit removed: "removed from the roster"', async () => {
    // Double six: panic; 2 on the panic table routs, and the unit is removed.
    const r = await rollWith(app, 'nerve-test', { unit: '1st Squad' }, [6, 6, 2]);
    expect(r.embed.description?.split('\n').at(-1)).toBe('1st Squad: removed from the roster');
    app.dice.push(6, 6, 2);
    expectMessage(await subcommand(app, alice, 'unit', 'add', { name: '2nd Squad', fields: 'nerve:8' }));
    const fr = expectMessage(await inLocale('fr', 'nerve-test', { unit: '2nd Squad' }));
    expect(fr.embed.description?.split('\n').at(-1)).toBe('2nd Squad\u202f: retirée de l’effectif');
  });
});
