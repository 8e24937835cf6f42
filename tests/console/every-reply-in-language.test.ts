import { describe, expect, it } from 'vitest';
import type { MessageKey } from '../../src/i18n/messages/en.js';
import { CATALOGS } from '../../src/i18n/speak.js';
import { shownText, tour } from '../helpers/tour.js';

// Every command's reply and refusal in the player's language. Each command's own
// example, then a whole game and its review, as a German or French GM: no English sentence of the catalogs shows.

/**
 * The English the catalogs word, in runs long enough not to be shared by chance; a sentence the
 * language keeps as English (a rule term as printed) is left out.
 */
const englishRuns = (lang: 'de' | 'fr') => [
  ...new Set(
    Object.entries(CATALOGS.en)
      .filter(([key, en]) => CATALOGS[lang][key as MessageKey] !== en)
      .flatMap(([, en]) => en.replace(/\{[^{}]*(\{[^{}]*\}[^{}]*)*\}/g, '\u0000').split('\u0000'))
      .map((s) => s.trim())
      .filter((s) => s.length >= 14 && /[a-z]{3} [a-z]{2,}/.test(s)),
  ),
];

describe.each([
  ['de', 'Register intakt'],
  ['fr', 'Registre intact'],
] as const)('every reply in %s', (lang, intact) => {
  it("each command's example, and a whole game with its review: nothing in English", async () => {
    const runs = englishRuns(lang);
    const english: Record<string, string[]> = {};
    const stops = await tour(lang);
    for (const { line, out } of stops) {
      const text = shownText(out);
      expect(text, line).not.toBe('');
      const found = runs.filter((run) => text.includes(run));
      if (found.length) english[line] = found;
    }
    // The game's dice checked as in production: the tour's ledger holds.
    expect(stops.filter((s) => s.line === '/verify').map((s) => shownText(s.out))).toEqual([0, 1].map(() => expect.stringContaining(`"title":"${intact}"`)));
    expect(stops.at(-1)!.line).toMatch(/^\/void id:[0-9a-z]{10} /);
    expect(english).toEqual({});
  });
});
