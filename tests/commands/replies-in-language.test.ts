import type { APIEmbed } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Reply } from '../../src/core/command.js';
import { RESULTS_EN } from '../../src/i18n/messages/en-results.js';
import { alice, expectMessage, gm, testApp, type TestApp } from '../helpers/app.js';
import { tmpDb } from '../helpers/tmp.js';

// Every result in the player's language, not only the refusals.

/** Everything a reply shows, as one text. */
function shownText(reply: Reply): string {
  const m = expectMessage(reply);
  const e: APIEmbed = m.embed;
  const parts = [
    e.title,
    e.author?.name,
    e.description,
    ...(e.fields ?? []).flatMap((f) => [f.name, f.value]),
    e.footer?.text,
    ...m.buttons.map((b) => b.label),
  ];
  return parts.filter(Boolean).join('\n');
}

/**
 * The English the results catalog words that a reply still shows: every run of words between a
 * sentence's parameters long enough not to be shared by chance (names, rule references, units).
 */
const ENGLISH_RUNS = [
  ...new Set(
    Object.values(RESULTS_EN as Record<string, string>)
      .flatMap((s) => s.replace(/\{[^{}]*(\{[^{}]*\}[^{}]*)*\}/g, '\u0000').split('\u0000'))
      .map((s) => s.trim())
      .filter((s) => s.length >= 14 && /[a-z]{3} [a-z]{2,}/.test(s)),
  ),
];
const englishIn = (text: string) => ENGLISH_RUNS.filter((run) => text.includes(run));
// "Original **2**" is no English left in: the Original is every language's word for it, as ASL prints it.
const FRAME_WORDS = /\b(Result|Modifiers|Dice|Odds|roll [0-9a-z]{6,}|this result|or better)\b/;

let app: TestApp;
afterEach(() => app?.ledger.close());

async function inLanguage(locale: string, name: string, options: Record<string, unknown>, dice: number[], subcommand?: string) {
  app.dice.push(...dice);
  const reply = await app.router.handle({ type: 'command', name, ...(subcommand ? { subcommand } : {}), options, actor: alice, locale });
  expect(app.dice.pending()).toBe(0);
  return shownText(reply);
}

describe('Hearts of Tin and Lightning War results in German and French', () => {
  it('a rally: title, situation, dice, modifiers, result, effect, odds and button in German', async () => {
    app = testApp(tmpDb());
    const text = await inLanguage('de', 'rally', { disorder: 2, quality: 'militia', commander_near: true }, [1]);
    expect(text).toContain('Sammelwurf — Flucht');
    expect(text).toContain('2 Unordnungsmarker · Miliz · Feind in Sicht innerhalb 24" · Kommandeur innerhalb 12"');
    expect(text).toContain('`−1` Miliz\n`−1` jeder weitere Unordnungsmarker');
    expect(text).toContain('**Flucht** — Die Einheit bricht: sie verlässt das Feld, es sei denn, ein Kommandeur schließt sich ihr an');
    expect(text).toContain('Kommandeur kommt — neu würfeln');
    expect(text).toMatch(/dieses Ergebnis \d+\/\d+ \(/);
    expect(englishIn(text)).toEqual([]);
    expect(text).not.toMatch(FRAME_WORDS);
  });

  it('the same rally in French, and in English for any other locale', async () => {
    app = testApp(tmpDb());
    const fr = await inLanguage('fr', 'rally', { disorder: 2, quality: 'militia', commander_near: true }, [1]);
    expect(fr).toContain('Jet de ralliement — Déroute');
    expect(fr).toContain('`−1` milice');
    expect(englishIn(fr)).toEqual([]);
    expect(fr).not.toMatch(FRAME_WORDS);
    const en = await inLanguage('ja', 'rally', { disorder: 2, quality: 'militia', commander_near: true }, [1]);
    expect(en).toContain('Rally roll — Rout');
    expect(en).toContain('`−1` each extra disorder marker');
  });

  it('disorder and brigade morale in German', async () => {
    app = testApp(tmpDb());
    const disorder = await inLanguage('de', 'disorder', { strength: 8, lost: 2, melee: 'defeated' }, []);
    expect(disorder).toContain('Unordnung — Erhält 2 Unordnungsmarker');
    expect(disorder).toContain('`+1` in dieser Runde 25 % oder mehr ihrer Stärke verloren (2 von 8)\n`+1` im Nahkampf besiegt');
    expect(disorder).toContain('Nahkampf: besiegt');
    expect(englishIn(disorder)).toEqual([]);
    const brigade = await inLanguage('fr', 'brigade', { original: 24, lost: 12, brigade: 'Highland Brigade' }, []);
    expect(brigade).toContain('Moral de brigade · Highland Brigade — Ébranlée');
    expect(brigade).toContain('Elle a perdu 12 sur 24, la moitié ou plus.');
    expect(englishIn(brigade)).toEqual([]);
  });

  it('a Lightning War morale check in French: modifiers, the reason for the check, the table reading', async () => {
    app = testApp(tmpDb());
    const text = await inLanguage('fr', 'morale', { morale: 'leery', casualties: '2/5', cover: 'soft', reason: 'friendly_fire' }, [3, 3, 3]);
    expect(text).toContain('Test de moral — Neutralisée');
    expect(text).toContain('parce qu’elle a été touchée par un tir ami');
    expect(text).toContain('`−2` moral hésitant\n`−2` pertes de plus de 20\u202f% à 40\u202f% (2/5)\n`+2` sous couvert léger');
    expect(englishIn(text)).toEqual([]);
    expect(text).not.toMatch(FRAME_WORDS);
  });
});

describe('Wacht am Rhein fatigue in German and French', () => {
  it('an event, a recovery refused, and a status, in German', async () => {
    app = testApp(tmpDb());
    const event = await inLanguage('de', 'fatigue', { event: 'ena_activated', status: 'resting', unit: 'KG Peiper' }, [], 'event');
    expect(event).toContain('Erschöpfungsereignis · KG Peiper — Ruhend → Erschöpft');
    expect(event).toContain('Ereignis: während der Extended Night Activity zur Aktivierung gewählt');
    expect(event).toContain('**Ruhend → Erschöpft** — Während der Extended Night Activity aktiviert: sie wird erschöpft.');
    expect(englishIn(event)).toEqual([]);
    const refused = await inLanguage('de', 'fatigue', { status: 'fatigued', tactical: false, adjacent_enemy: true, moved: true }, [], 'recover');
    expect(refused).toContain(
      '**Keine Erholung: bleibt erschöpft** — Sie kann sich nicht erholen, weil sie nicht im Tactical-Modus ist und sie an eine feindliche Einheit angrenzt und sie sich in der Movement Phase bewegte.',
    );
    expect(englishIn(refused)).toEqual([]);
    const status = await inLanguage('fr', 'fatigue', { status: 'resting', attack: 5, defense: 4, movement: 7 }, [], 'status');
    expect(status).toContain('Épuisement · unité non suivie');
    expect(status).toContain('**3-2-4** (divisées par deux, arrondies au supérieur, depuis 5-4-7)');
    expect(status).toContain('ne peut ni donner ni recevoir de RIB; ne peut pas passer en mode Prepared Assault ou Combat Reserve');
    expect(englishIn(status)).toEqual([]);
  });
});

describe('ASL results in German and French', () => {
  it('/mc with a chained Heat of Battle in German: the news in the title, each step, the HoB band, the odds', async () => {
    app = testApp(tmpDb());
    const text = await inLanguage('de', 'mc', { unit: 'Russian 4-4-7', number: 1 }, [1, 1, 3, 4]);
    expect(text).toContain('Morale Check · Russian 4-4-7 — Bestanden · Berserk');
    expect(text).toContain('farbig ⚀ **1** · weiß ⚀ **1** → Original **2**');
    expect(text).toContain('**Bestanden** — Final 3 ≤ ML 7: keine Wirkung.');
    expect(text).toContain('Ausgelöst durch die Original 2 beim Morale Check.\nFinal 9 liegt in seinem Bereich, 9–11.');
    expect(text).toMatch(/dieses Ergebnis 5\/18 \(27,8\s%\)/);
    expect(englishIn(text)).toEqual([]);
    expect(text).not.toMatch(FRAME_WORDS);
  });

  it('an ELR failure in French names the replacement counter', async () => {
    app = testApp(tmpDb());
    const text = await inLanguage('fr', 'mc', { unit: 'German 4-6-7', number: 2, elr: 0 }, [6, 5]);
    expect(text).toContain('Morale Check · German 4-6-7 — Remplacée (ELR)');
    expect(text).toContain('**Remplacée (ELR)** — Ratée de 6, plus que son ELR de 0\u202f: remplace-la par une German 4-4-7 brisée (A19.13).\nContre ML 7.');
    expect(englishIn(text)).toEqual([]);
    expect(text).not.toMatch(FRAME_WORDS);
  });
});

describe('/dr and /roll dice in German and French', () => {
  it('a To Hit DR in German: the dice named, its notes, its odds, the button', async () => {
    app = testApp(tmpDb());
    const text = await inLanguage('de', 'dr', { category: 'TH', drm: 1 }, [1, 1]);
    expect(text).toContain('farbig ⚀ **1** · weiß ⚀ **1**\nOriginal **2** · DRM `+1` · Final **3**');
    expect(text).toContain('• Wanne\n• Unlikely Hit (C3.6)\n• Kritischer Treffer (C3.7)\n• Mehrfachtreffer 15–40mm (C3.8)');
    expect(text).toMatch(/Original 2: 1\/36 \(2,78\s%\) · 2 oder weniger: 1\/36/);
    expect(text).toContain('Erneut würfeln');
    expect(englishIn(text)).toEqual([]);
    expect(text).not.toMatch(FRAME_WORDS);
  });

  it('a dice expression refused in German, where the parser stopped and why included', async () => {
    app = testApp(tmpDb());
    const r = await app.router.handle({ type: 'command', name: 'roll', subcommand: 'dice', options: { expression: '3d6x' }, actor: alice, locale: 'de' });
    expect(r.type === 'error' && r.message).toMatch(/^`ausdruck` "3d6x": Zeichen 4 \("x"\): \+ oder - zwischen Termen\./);
  });

  it('a dice expression in French', async () => {
    app = testApp(tmpDb());
    const [name, subcommand] = ['roll', 'dice'];
    const text = await inLanguage('fr', name, { expression: '2d6+1d4' }, [3, 4, 2], subcommand);
    expect(text).toContain('`2d6` 3 4 → **7**\n`+1d4` 2 → **+2**\nTotal **9**');
    expect(text).toMatch(/9\s: 5\/36 \(13,9\s%\) · 9 ou plus\s: 23\/36 \(63,9\s%\)/);
    expect(englishIn(text)).toEqual([]);
    expect(text).not.toMatch(FRAME_WORDS);
  });
});

describe('/odds in German', () => {
  it('a rally’s odds: title, situation, the table’s head and names, the closing sentence', async () => {
    app = testApp(tmpDb());
    const text = await inLanguage('de', 'odds', { roll: 'rally disorder:2 quality:elite' }, []);
    expect(text).toContain('Chancen · Sammelwurf');
    expect(text).toContain('2 Unordnungsmarker · Elite · Feind in Sicht innerhalb 24" · keine Wiederholung durch den Kommandeur');
    expect(text).toMatch(/Ergebnis +Chance +%\nSammeln +1\/2 +50,0\s%\nRückzug +1\/2 +50,0\s%/);
    expect(text).toContain('Exakt: jede Kombination der Würfel gezählt');
    expect(englishIn(text)).toEqual([]);
  });
});

describe('games and rosters in German and French', () => {
  const inGame = (locale: string, subcommand: string, options: Record<string, unknown> = {}, name = 'game') =>
    app.router.handle({ type: 'command', name, subcommand, options, actor: alice, locale });

  it('a Hearts of Tin game in German: its start, a unit, the roster, its status, its end', async () => {
    app = testApp(tmpDb());
    const start = shownText(await inGame('de', 'start', { system: 'hearts-of-tin', name: 'Ligny' }));
    expect(start).toContain('Spiel begonnen · Ligny');
    expect(start).toContain('Würfe in Hearts of Tin in diesem Kanal gehören jetzt zu diesem Spiel. Setze die Runde mit /spiel runde.');
    expect(start).toMatch(/\*\*Faire Würfel\.\*\* Der Seed dieses Spiels ist jetzt festgelegt \(Fingerabdruck `[0-9a-f]{12}…`\)/);
    expect(start).toContain('System\nHearts of Tin\nRunde\nnicht gesetzt\nBegonnen');
    const added = shownText(await inGame('de', 'add', { name: 'Garde', fields: 'quality:elite strength:6 original:6 band:true' }, 'unit'));
    expect(added).toContain('Einheit hinzugefügt · Garde\nJetzt\nElite + Kapelle · Stärke 6/6 · Unordnung 0\nBesitzer');
    const listed = shownText(await inGame('de', 'list', {}, 'unit'));
    expect(listed).toContain('Aufstellung · Ligny\n**Garde** — Elite + Kapelle · Stärke 6/6 · Unordnung 0');
    expect(listed).toMatch(/Seite 1 von 1 · 1 Einheit · Spiel \S+$/);
    const status = shownText(await inGame('de', 'status'));
    expect(status).toContain('Aufstellung\n1 Einheit\nWürfe bisher\n0');
    expect(status).toContain('Keine Spieler-Seeds festgelegt.');
    const ended = shownText(await inGame('de', 'end'));
    expect(ended).toMatch(/Spiel beendet · Ligny\nServer-Seed aufgedeckt: `[0-9a-f]+` \(sein SHA-256 wurde zu Beginn veröffentlicht\)/);
    for (const text of [start, added, listed, status, ended]) expect(englishIn(text)).toEqual([]);
  });

  it('a Wacht am Rhein unit in French, and an empty roster', async () => {
    app = testApp(tmpDb());
    await inGame('fr', 'start', { system: 'wacht-am-rhein', name: 'Bulge' });
    const empty = shownText(await inGame('fr', 'list', {}, 'unit'));
    expect(empty).toContain('Aucune unité');
    const added = shownText(await inGame('fr', 'add', { name: '1/506', fields: 'attack:7 defense:5 movement:6' }, 'unit'));
    expect(added).toContain('Unité ajoutée · 1/506');
    expect(englishIn(empty + added)).toEqual([]);
  });
});

describe('review in German and French', () => {
  const ask = (locale: string, name: string, options: Record<string, unknown> = {}, subcommand?: string, actor = alice) =>
    app.router.handle({ type: 'command', name, ...(subcommand ? { subcommand } : {}), options, actor, locale });

  it('/history, /roll show, /stats, /verify and /void in German; the void reason shown as typed', async () => {
    app = testApp(tmpDb());
    app.dice.push(6);
    const roll = expectMessage(await ask('de', 'rally', { disorder: 1 }));
    expect(app.dice.pending()).toBe(0);
    const id = roll.record!.roll_id;
    const voided = shownText(await ask('de', 'void', { id, reason: '**fett** @everyone' }, undefined, gm));
    expect(voided).toContain(`Wurf für ungültig erklärt\nWurf ${id} ist ungültig: \\*\\*fett\\*\\* @everyone\nErfasst als`);
    expect(voided).toContain('der Wurf selbst bleibt unverändert und gelistet, durchgestrichen.');
    // A roll offered as you type: its command as the German client names it, its result in German.
    const offered = await app.router.handle({ type: 'autocomplete', name: 'roll', subcommand: 'show', option: 'id', value: '', actor: gm, locale: 'de' });
    expect(offered.type === 'choices' && offered.choices[0]!.name).toMatch(new RegExp(`^${id} · /sammeln · Sammeln · Alice · `));
    const history = shownText(await ask('de', 'history'));
    expect(history).toContain('Wurfhistorie');
    expect(history).toMatch(/~~.* \/sammeln · \*\*Sammeln\*\* · .*~~ \*\(ungültig: \\\*\\\*fett\\\*\\\* @everyone\)\*/);
    expect(history).toContain('dieser Kanal · Seite 1 von 1 · 1 Wurf · neueste zuerst');
    const shown = shownText(await ask('de', 'roll', { id }, 'show'));
    expect(shown).toContain(`Wurf ${id} · /sammeln`);
    expect(shown).toContain('Wer und wo\n');
    expect(shown).toContain('Verknüpfte Zeilen\n');
    expect(shown).toMatch(/Register\nPosition 1 · Hash `[0-9a-f]{64}`\nvorher/);
    const stats = shownText(await ask('de', 'stats'));
    expect(stats).toContain('Würfelbericht\n0 Würfe erfasst · dieser Kanal\n\nKeine Würfe passen.');
    const verify = shownText(await ask('de', 'verify'));
    expect(verify).toMatch(/^Register intakt\nIntakt: 2 Zeilen, Kopf-Hash `[0-9a-f]{64}`\./);
    for (const text of [voided, history, shown, stats, verify]) expect(englishIn(text)).toEqual([]);
  });

  it('/stats in French counts the rolls in French words', async () => {
    app = testApp(tmpDb());
    app.dice.push(3);
    await ask('fr', 'roll', { expression: '1d6' }, 'dice');
    const stats = shownText(await ask('fr', 'stats', { by: 'user' }));
    expect(stats).toContain('Rapport des dés\n1 jet enregistré · ce salon');
    expect(stats).toContain('**1d6** · <@alice> — 1 jet, moyenne 3,00 (exacte 3,50)\u202f; trop peu de jets pour juger (1 sur 39 nécessaires)');
    expect(stats).toContain('*Les jets scellés comptent une fois révélés\u202f; les jets annulés jamais.*');
    expect(englishIn(stats)).toEqual([]);
  });
});

describe('/help in the reader’s language', () => {
  it('names every command, subcommand and option as the German client shows them, so each example can be typed', async () => {
    app = testApp(tmpDb());
    const help = shownText(await app.router.handle({ type: 'command', name: 'help', options: {}, actor: alice, locale: 'de' }));
    expect(help).toContain('Morale Officer · Hilfe\nMorale Officer würfelt auf dem Server');
    expect(help).toMatch(/\*\*\/einheit\*\* \(hinzufügen, /);
    expect(help).toMatch(/`\/einheit hinzufügen name:"[^"]+" felder:/);
    expect(help).not.toMatch(/`\/(unit|game|rally) /);
    expect(englishIn(help)).toEqual([]);
  });
});

describe('rule packs in French: the frame in French, the author’s words as written', () => {
  it('installs, rolls and shows the odds of a pack in French', async () => {
    app = testApp(tmpDb());
    const fr = (name: string, options: Record<string, unknown>, subcommand?: string, actor = alice) =>
      app.router.handle({ type: 'command', name, ...(subcommand ? { subcommand } : {}), options, actor, locale: 'fr' });
    const installed = shownText(await fr('pack', { example: 'bolt-action-order' }, 'install', gm));
    expect(installed).toMatch(/^Pack installé\n`\/bolt-action-order [^`]+` — .+ \(version \d+, ligne du pack `\w+`, sha256 `[0-9a-f]{12}…`\)/);
    expect(installed).toContain('Tout le monde ici peut le lancer.');
    const odds = shownText(await fr('bolt-action-order', { morale: 9, odds_only: true }));
    expect(odds).toMatch(/— les chances\n/);
    expect(odds).toContain('*Rien n’a été lancé ni enregistré.*');
    const listed = shownText(await fr('pack', {}, 'list'));
    expect(listed).toMatch(/^Packs de règles\n/);
    for (const text of [installed, odds, listed]) expect(englishIn(text)).toEqual([]);
  });
});
