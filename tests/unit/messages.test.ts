import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { EN, type MessageKey } from '../../src/i18n/messages/en.js';
import { command, list, option, said } from '../../src/i18n/said.js';
import { CATALOGS, sayIn, speak } from '../../src/i18n/speak.js';
import { alice, appWithGame, expectError, subcommand, testApp } from '../helpers/app.js';
import { tmpDb } from '../helpers/tmp.js';

// What the bot says is an identifier with parameters, in English, German and
// French; a translation has every identifier and the very parameters of the English.
type Ast = { type: number; value?: string; options?: Record<string, { value: Ast }> }[];
/** The parameters a sentence uses (plain, plural, select …), from ICU's own parse. */
function paramsOf(text: string, lang: string): string[] {
  const out = new Set<string>();
  const walk = (nodes: Ast) => {
    for (const n of nodes) {
      if (n.type >= 1 && n.type <= 6 && n.value) out.add(n.value);
      for (const o of Object.values(n.options ?? {})) walk(o.value);
    }
  };
  walk(new IntlMessageFormat(text, lang, undefined, { ignoreTag: true }).getAst() as unknown as Ast);
  return [...out].sort();
}
// English's articles ("a ", "an ") are parameters the other languages do without; a name's
// grammatical gender (`unit_gender`, `subject_gender`) is one only the other languages need.
const ENGLISH_ONLY = new Set(['article', 'Article']);
const isGender = (p: string) => p.endsWith('_gender');
const KEYS = Object.keys(EN) as MessageKey[];
// Sentences of parameters only, names kept in English, and words French writes as English does.
const SAME_IN_EVERY_LANGUAGE = new RegExp(
  `^(${[
    'sentence|packRefused|preparedAssault|combatReserve|fieldNotes|fieldCauses|fieldFinal|footerHash|dice\\.total|diceToOriginal|stepLine',
    // Rule terms players use as printed, in any language.
    'war\\.r\\.(mr|restingTitle)|asl\\.hob\\.(battle_hardening|berserk|disrupted)|asl\\.drm\\.nkvd|asl\\.ntc\\.berserk|asl\\.mod\\.selfRally|asl\\.r\\.selfRally',
    'asl\\.ml\\.(berserk|fanatic)|asl\\.note\\.elr|asl\\.mc\\.(pinned|step_reduced|disrupted|casualty_reduction|casualtyDisrupted)',
    'dr\\.note\\.(unlikelyHit|hob|casualtyMc|ccTwelve)|dr\\.(headline|original|totals)|roster\\.system|game\\.san|review\\.(message|final)|pack\\.footer',
  ].join('|')})$|Unreadable$`,
);

describe('the catalogs', () => {
  it.each(['de', 'fr'] as const)('%s has every identifier and no other, each with the parameters of the English', (lang) => {
    expect(Object.keys(CATALOGS[lang]).sort()).toEqual([...KEYS].sort());
    for (const key of KEYS) {
      const english = paramsOf(EN[key], 'en').filter((p) => !ENGLISH_ONLY.has(p));
      expect(
        paramsOf(CATALOGS[lang][key], lang).filter((p) => !ENGLISH_ONLY.has(p) && !isGender(p)),
        `${lang}.${key}`,
      ).toEqual(english);
      // A sentence of parameters and punctuation only ("{why}: {effect}.") is the same in every language.
      const wordless = !/[A-Za-z]{3}/.test(EN[key].replace(/\{[^{}]*\}/g, ''));
      expect(CATALOGS[lang][key], `${lang}.${key} is translated`).not.toBe(wordless || SAME_IN_EVERY_LANGUAGE.test(key) ? '' : EN[key]);
    }
  });

  it('every sentence renders in every language with its parameters, and none is left unfilled', () => {
    for (const lang of ['en', 'de', 'fr'] as const)
      for (const key of KEYS) {
        // A number's or a selector's parameter shows as the language writes it, not as given.
        const numeric = (p: string) => new RegExp(`\\{${p}, (number|plural|select)`).test(EN[key]);
        const values = Object.fromEntries(paramsOf(EN[key], 'en').map((p) => [p, numeric(p) ? 2 : `<${p}>`]));
        const text = sayIn(lang, said(key, values));
        expect(text, `${lang}.${key}`).not.toMatch(/\{[a-zA-Z_]+\}/);
        for (const p of paramsOf(CATALOGS[lang][key], lang)) if (!numeric(p) && !isGender(p)) expect(text, `${lang}.${key} shows ${p}`).toContain(`<${p}>`);
      }
  });

  it('options and commands are named as the reader’s client names them; numbers and lists in the reader’s language', () => {
    const s = said('optionRequired', { name: option('disorder'), allowed: said('allowedInteger', { min: 1, max: 30 }) });
    expect(speak('en-US', s)).toBe('`disorder` is required: a whole number from 1 to 30.');
    expect(speak('de', s)).toBe('`unordnung` wird benötigt: eine ganze Zahl von 1 bis 30.');
    // French spacing before high punctuation comes from one formatter: a narrow no-break space.
    expect(speak('fr', s)).toBe('`désordre` est requis\u202f: un nombre entier de 1 à 30.');
    const start = said('noGameHere', { start: command('game start') });
    expect(speak('de', start)).toBe('In diesem Kanal läuft kein Spiel: starte eines mit /spiel starten system:<system> name:<name>.');
    expect(speak('fr', said('fileTooBig', { file: 'a.yaml', size: 1234567, max: 65536 }))).toBe(
      'a.yaml fait 1\u202f234\u202f567 octets\u202f; au plus 65\u202f536 sont lus.',
    );
    expect(speak('de', said('fileTooBig', { file: 'a.yaml', size: 1234567, max: 65536 }))).toBe('a.yaml hat 1.234.567 Bytes; höchstens 65.536 werden gelesen.');
    expect(speak('en', said('fieldsMissing', { Article: 'An ', system: 'ASL', missing: list(['a', 'b']), fields: option('fields'), example: '"x"' }))).toBe(
      'An ASL unit needs a and b in `fields`, like fields:"x".',
    );
    expect(speak('de', said('fieldsMissing', { Article: 'An ', system: 'ASL', missing: list(['a', 'b']), fields: option('fields'), example: '"x"' }))).toBe(
      'Eine ASL-Einheit braucht a und b in `felder`, etwa felder:"x".',
    );
  });
});

describe('names a player typed', () => {
  it('an option name that is no option (every name Object.prototype has) is shown as typed, in every language', () => {
    for (const name of Object.getOwnPropertyNames(Object.prototype))
      for (const locale of ['en', 'de', 'fr'])
        expect(speak(locale, said('noOptions', { name: option(name), command: command('dr') })), `${locale} ${name}`).toMatch(new RegExp(`^\`${name}\``));
  });
});

describe('refusals through the router, in the player’s language', () => {
  it('a bad option value names the option as the player’s client shows it', async () => {
    const app = testApp(tmpDb());
    const bad = (locale?: string) =>
      app.router.handle({ type: 'command', name: 'rally', options: { disorder: 99 }, actor: alice, ...(locale ? { locale } : {}) });
    expect(expectError(await bad())).toBe('`disorder` must be a whole number from 1 to 30 (you gave 99).');
    expect(expectError(await bad('de'))).toBe('`unordnung` muss eine ganze Zahl von 1 bis 30 sein (du gabst 99).');
    expect(expectError(await bad('fr'))).toBe('`désordre` doit être un nombre entier de 1 à 30 (tu as donné 99).');
    app.ledger.close();
  });

  it('a refusal a command throws (no game, a unit that left the roster) is the player’s language too', async () => {
    const app = testApp(tmpDb());
    const noGame = await app.router.handle({ type: 'command', name: 'unit', subcommand: 'list', options: {}, actor: alice, locale: 'fr' });
    expect(expectError(noGame)).toBe('Aucune partie n’est en cours dans ce salon\u202f: lance-en une avec /partie commencer system:<système> name:<nom>.');
    app.ledger.close();
    const game = await appWithGame('hearts-of-tin', { '1st Foot': { original: 4 } });
    expect((await subcommand(game, alice, 'unit', 'remove', { unit: '1st Foot' })).type).toBe('message');
    const gone = await game.router.handle({ type: 'command', name: 'rally', options: { unit: '1st Foot', disorder: 1 }, actor: alice, locale: 'de' });
    expect(expectError(gone)).toMatch(
      /^1st Foot hat die Aufstellung von .* verlassen \(.* UTC\): nichts wurde gewürfelt\. Um trotzdem dafür zu würfeln, lass `einheit` weg; um sie zurückzuholen, füge sie mit \/einheit hinzufügen wieder hinzu\.$/,
    );
    game.ledger.close();
  });
});
