import { afterEach, describe, expect, it } from 'vitest';
import { answering, percentIn, speakingOf, say } from '../../src/i18n/reader.js';
import { said, type Value } from '../../src/i18n/said.js';
import type { MessageKey } from '../../src/i18n/messages/en.js';
import { sayIn } from '../../src/i18n/speak.js';
import { frenchTypography } from '../../src/i18n/typography.js';
import { chartSvg } from '../../src/render/chart.js';
import { RESULTS_EN } from '../../src/i18n/messages/en-results.js';
import { PAGE_WORDS } from '../../src/verify/page/words.js';
import { alice, appWithGame, expectError, expectMessage, testApp, type TestApp } from '../helpers/app.js';
import { tmpDb } from '../helpers/tmp.js';

// German and French a wargamer reads without wincing: each class of wrong sentence, in both
// languages, as the reader sees it.

const de = (key: MessageKey, values?: Record<string, Value>) => sayIn('de', said(key, values));
const fr = (key: MessageKey, values?: Record<string, Value>) => sayIn('fr', said(key, values));
/** French text compared with plain spaces before high punctuation (the formatter's own test is below). */
const plain = (s: string) => s.replaceAll('\u202f', ' ');

describe('wrong meaning', () => {
  it('an armoured vehicle pinned carries on as normal, not "keep it up"', () => {
    expect(de('lw.pinnedArmor')).toBe('Niedergehalten wirkt nicht auf ein gepanzertes Fahrzeug: es handelt normal weiter.');
    expect(plain(fr('lw.pinnedArmor'))).toBe('Clouée est sans effet sur un véhicule blindé : il agit normalement.');
  });

  it('woods is a place to be in, not a material', () => {
    expect(de('asl.mod.terrain', { terrain: 'woods' })).toBe('im Wald');
    expect(fr('asl.mod.terrain', { terrain: 'woods' })).toBe('dans un bois');
  });

  it('a failed check is failed, not a missed shot; Good Order and non-elite are the rules’ own', () => {
    expect(de('asl.elr.over', { by: 7, elr: 3 })).toBe('Um 7 nicht bestanden, mehr als ihre ELR von 3');
    expect(de('asl.override.no_adjacent_enemy')).toContain('in Good Order');
    expect(de('asl.override.minor_surrender')).toMatch(/^Italiener \(außer Elite\)/);
    expect(de('lw.tableRead', { code: 'fall_back' })).toBe('Absetzen');
    expect(plain(fr('asl.override.no_adjacent_enemy'))).toContain('en Good Order');
  });
});

describe('grammar: counters named around the printed counter, words agreeing with them', () => {
  it('a leader is an Anführer, a chef, with the article of his gender', () => {
    const values = { over: 'X', counter: 'German 9-1 leader' };
    expect(de('asl.elr.leaderNot', values)).toBe('X, und ein Anführer German 9-1 kann nicht ersetzt werden');
    expect(fr('asl.elr.leaderNot', values)).toBe('X, et un chef German 9-1 ne peut pas être remplacé');
    expect(de('asl.elr.leaderDown', { over: 'X', to: 'German 8-1 leader' })).toBe('X: ersetze ihn durch einen gebrochenen Anführer German 8-1 (A19.13)');
  });

  it('a half-squad is feminine in both languages, and an eliminated one agrees', () => {
    expect(de('asl.elr.to', { over: 'X', to: 'German 2-3-7 half-squad' })).toBe('X: ersetze sie durch eine gebrochene Halbgruppe German 2-3-7 (A19.13)');
    expect(plain(fr('asl.elr.to', { over: 'X', to: 'German 2-3-7 half-squad' }))).toBe('X : remplace-la par une demi-escouade German 2-3-7 brisée (A19.13)');
    expect(fr('asl.commissar.eliminated', { failed: 'F', what: 'hs' })).toContain('ne peut pas être remplacée, donc elle est éliminée');
    expect(de('asl.jp.replacedTo', { by: 1, elr: 2, reduced: 'no', to: 'T', ref: 'R' })).toContain('durch die volle Gruppe');
  });

  it('a leader’s result is masculine in French, a squad’s feminine', () => {
    const broken = said('asl.mc.broken');
    answering('fr', () => {
      expect(speakingOf('German 9-1 leader', () => say('asl.mc.broken'))).toBe('Brisé');
      expect(speakingOf('German 4-6-7', () => say('asl.mc.broken'))).toBe('Brisée');
    });
    answering('de', () => expect(speakingOf('German 9-1 leader', () => say('asl.staysBroken', { final: 9, ml: 8, two: '' }))).toContain('er bleibt gebrochen'));
    expect(sayIn('fr', broken)).toBe('Brisée');
  });

  it('a unit that lost its whole strength has left the field; resting is a state, not a walk', () => {
    expect(de('hot.gone.effect', { strength: 4 })).toContain('sie hat das Feld verlassen');
    expect(de('war.goesResting', { cause: 'C' })).toBe('C: sie ruht jetzt.');
  });

  it('one of a thing is singular', () => {
    expect(de('stats.more', { n: 1 })).toMatch(/^…und 1 kleinere Gruppe \(/);
    expect(fr('stats.more', { n: 1 })).toMatch(/^…et 1 groupe plus petit \(/);
    expect(sayIn('en', said('stats.more', { n: 1 }))).toMatch(/^…and 1 smaller group \(/);
  });
});

describe('one thing, one word', () => {
  it('the dice before modifiers are the Original, in both languages, never a roll', () => {
    expect(de('diceToOriginal', { dice: '3 4', original: 7 })).toBe('3 4 → Original **7**');
    expect(fr('diceToOriginal', { dice: '3 4', original: 7 })).toBe('3 4 → Original **7**');
    expect(de('dr.totals', { original: 7, drm: '+1', final: 8 })).toBe('Original **7** · DRM `+1` · Final **8**');
    expect(de('fieldFinal')).toBe('Final');
  });

  it('a turn is a Runde, as in /spiel runde; fatigue and the rally roll have one word each', () => {
    expect(de('atTurn', { turn: 3 })).toBe('Runde 3');
    expect(de('hot.noCause')).toBe('In dieser Runde trifft keine Ursache für Unordnung zu.');
    expect(de('rallyNotOnRecord')).toBe('Dieser Sammelwurf ist auf diesem Server nicht verzeichnet.');
    expect(de('selfRallyNoLeader', { leader_drm: 'x' })).toBe('Ein Self-Rally hat keinen sammelnden Anführer: lass `x` weg.');
    expect(plain(fr('mrExempt', { unit: 'U', by: 'b' }))).toContain('l’épuisement');
    expect(de('war.r.restingTitle')).toBe('Ruhephase');
    expect(fr('war.r.restingTitle')).toBe('Phase de repos');
  });
});

describe('no English left in', () => {
  it('a Self-Rally’s turn, a vehicle, a fatigue state are words of the reader’s language', () => {
    expect(de('asl.r.selfRally', { how: 'later' })).toBe('Self-Rally (späteres)');
    expect(fr('asl.r.selfRally', { how: 'later' })).toBe('Self-Rally (suivant)');
    expect(de('onlyInfantryRallies', { type: 'armored_vehicle', article: 'an ' })).toContain('ein gepanzertes Fahrzeug nicht');
    expect(plain(fr('onlyInfantryRallies', { type: 'armored_vehicle', article: 'an ' }))).toContain('un véhicule blindé ne le peut pas');
    expect(de('fatiguedNoMode', { fatigue: 'resting', Article: 'A ', mode: 'M' })).toBe('Eine ruhende Einheit darf nicht in den Modus M wechseln (13.1.1).');
    expect(plain(fr('fatiguedNoMode', { fatigue: 'resting', Article: 'A ', mode: 'M' }))).toBe('Une unité au repos ne peut pas passer en mode M (13.1.1).');
    expect(sayIn('en', said('onlyInfantryRallies', { type: 'armored_vehicle', article: 'an ' }))).toBe(
      'Only infantry rallies: an armored vehicle cannot (Lightning War, Rallying).',
    );
  });
});

describe('French typography', () => {
  it('one formatter puts a narrow no-break space before : ; ! ? and %, and leaves code and name:value alone', () => {
    expect(frenchTypography('Système: Alliés : 17% ; Hourra!')).toBe('Système\u202f: Alliés\u202f: 17\u202f%\u202f; Hourra\u202f!');
    expect(frenchTypography('`champs`: x name:valeur 18:00 ```\na : b\n```')).toBe('`champs`\u202f: x name:valeur 18:00 ```\na : b\n```');
    expect(fr('alreadyJoined', { game: 'G', side: 'S', join: '/j' })).toContain('S\u202f: un MJ');
    answering('fr', () => expect(percentIn(0.5)).toBe('50,0\u202f%'));
  });
});

describe('charts in the reader’s language', () => {
  it('a bar’s value is written as the reader writes numbers', () => {
    const spec = { title: 't', labels: ['a'], series: [{ name: 's', values: [0.25], colour: '#fff' }] };
    answering('de', () => expect(chartSvg(spec)).toContain('>0,25<'));
    answering('en', () => expect(chartSvg(spec)).toContain('>0.25<'));
  });
});

let app: TestApp;
afterEach(() => app?.ledger.close());

const odds = (roll: string, locale: string) => app.router.handle({ type: 'command', name: 'odds', options: { roll }, actor: alice, locale });

describe('typed text in the reader’s language, through the router', () => {
  it('/chancen wurf:"sammeln unordnung:2" answers in German; the English names still work', async () => {
    app = testApp(tmpDb());
    expect(expectMessage(await odds('sammeln unordnung:2', 'de')).embed.title).toMatch(/^Chancen/);
    expect(expectMessage(await odds('rally disorder:2', 'de')).embed.title).toMatch(/^Chancen/);
    expect(expectMessage(await odds('ralliement désordre:2 qualité:militia', 'fr')).embed.title).toMatch(/^Chances/);
  });

  it('a refusal names the option as the reader typed it', async () => {
    app = testApp(tmpDb());
    expect(expectError(await odds('sammeln unordnung:99', 'de'))).toBe('`unordnung` muss eine ganze Zahl von 1 bis 30 sein (du gabst 99).');
    expect(expectError(await odds('sammeln disorder:99', 'de'))).toBe('`disorder` muss eine ganze Zahl von 1 bis 30 sein (du gabst 99).');
    expect(plain(expectError(await odds('ralliement désordre:99', 'fr')))).toBe('`désordre` doit être un nombre entier de 1 à 30 (tu as donné 99).');
  });

  it('autocomplete offers the names the reader’s client shows', async () => {
    app = testApp(tmpDb());
    const offered = (value: string, locale: string) => app.router.handle({ type: 'autocomplete', name: 'odds', option: 'roll', value, actor: alice, locale });
    expect(JSON.stringify(await offered('samm', 'de'))).toContain('"value":"sammeln "');
    expect(JSON.stringify(await offered('sammeln unord', 'de'))).toContain('sammeln unordnung:');
    expect(JSON.stringify(await offered('ralliement dés', 'fr'))).toContain('ralliement désordre:');
  });

  it('a unit’s fields typed as the reader’s client names them', async () => {
    app = await appWithGame('hearts-of-tin');
    const add = (fields: string, locale: string) =>
      app.router.handle({ type: 'command', name: 'unit', subcommand: 'add', options: { name: `U ${fields}`, fields }, actor: alice, locale });
    expectMessage(await add('ursprünglich:4 qualität:elite', 'de'));
    expectMessage(await add('initial:4 qualité:elite', 'fr'));
    expect(expectError(await add('ursprünglich:0', 'de'))).toMatch(/^`felder`: ursprünglich muss /);
  });

  it('German dice are written with W, and shown back as written', async () => {
    app = testApp(tmpDb());
    app.dice.push(3, 4);
    const roll = (expression: string, locale: string) =>
      app.router.handle({ type: 'command', name: 'roll', subcommand: 'dice', options: { expression }, actor: alice, locale });
    expect(expectMessage(await roll('2W6+1', 'de')).embed.title).toBe('2W6+1 → 8');
    app.dice.push(3, 4);
    expect(expectMessage(await roll('2d6+1', 'fr')).embed.title).toBe('2d6+1 → 8');
    expect(expectError(await roll('2W6', 'en'))).toMatch(/^`expression` "2W6"/);
  });
});

describe('the rest of the second pass', () => {
  const shownText = (r: { embed: { description?: string; fields?: { value: string }[] } }) =>
    [r.embed.description ?? '', ...(r.embed.fields ?? []).map((f) => f.value)].join('\n');

  it('the nationality bonus is named in the reader’s language, not in English', async () => {
    app = testApp(tmpDb());
    const hob = (locale: string) => {
      app.dice.push(3, 4);
      return app.router.handle({ type: 'command', name: 'hob', options: { unit: 'Italian 3-4-7' }, actor: alice, locale });
    };
    expect(shownText(expectMessage(await hob('de')))).toContain('`+3` Italiener');
    expect(shownText(expectMessage(await hob('fr')))).toContain('`+3` Italiens');
    expect(shownText(expectMessage(await hob('en')))).toContain('`+3` Italian');
  });

  it('pinned is one German word in ASL as in Lightning War', () => {
    expect(de('asl.mc.pinned')).toBe('Niedergehalten');
    expect(de('asl.pinned', { final: 7, ml: 7 })).toMatch(/ist aber niedergehalten\.$/);
    expect(de('lw.pinned.label')).toBe('Niedergehalten');
  });

  it('the French request sentences say tu, as every French sentence does', () => {
    expect(plain(fr('clock.remindTurn', { player: '1', game: 'G', since: 's' }))).toBe('<@1>, G attend ton coup (depuis s).');
    expect(fr('clockNothing', { options: 'o' })).toBe('Donne au moins l’une de ces options\u202f: o.');
    expect(fr('clock.turnSet', { player: '1' })).toBe('C’est à <@1> de jouer.');
  });

  it('verify.html sets its French with the same formatter', () => {
    expect(PAGE_WORDS.fr.verified).toBe('Vérifié\u202f: tout tient.');
    expect(PAGE_WORDS.fr.reading).toBe('Lecture {pct}\u202f%');
    expect(Object.values(PAGE_WORDS.fr).filter((s) => / [:;!?%](\s|$)/.test(s))).toEqual([]);
  });

  it('a French /odds chart names every result in French (or as ASL prints it)', async () => {
    app = testApp(tmpDb());
    const frNames = new Set((Object.keys(RESULTS_EN) as MessageKey[]).filter((k) => /^asl\.(mc|hob)\.[a-z_]+$/.test(k)).map((k) => sayIn('fr', said(k))));
    for (const roll of ['mc unit:"German 4-6-7"', 'mc unit:"German 9-1 leader"', 'hob unit:"Japanese 4-4-7"']) {
      const r = expectMessage(await odds(roll, 'fr'));
      const alt = ('files' in r ? r.files?.[0]?.description : undefined) ?? '';
      const names = alt
        .replace(/^.*probabilité\u202f: /, '')
        .replace(/\.$/, '')
        .split(/, (?=[A-ZÉ])/)
        .map((s: string) => s.replace(/ [<\d][\d,]*\u202f%$/, ''));
      expect(names.length).toBeGreaterThan(2);
      for (const n of names) for (const part of n.split(' → ')) expect(frNames, `${roll}: ${part}`).toContain(part);
    }
  });
});
