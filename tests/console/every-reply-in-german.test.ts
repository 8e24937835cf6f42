import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../commands/index.js';
import { ConsoleSession } from '../../src/console/session.js';
import { cryptoRoller } from '../../src/dice/roller.js';
import { de } from '../../src/i18n/messages/de.js';
import { EN } from '../../src/i18n/messages/en.js';
import { createRouter } from '../../src/app.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { createLogger } from '../../src/log.js';
import { alice } from '../helpers/app.js';
import { tmpDb } from '../helpers/tmp.js';

// Issue 43, item 6: every command's reply and refusal in the player's language. Each command's own
// example, then a whole game and its review, as a German GM: no English sentence of the catalogs shows.

/**
 * The English the catalogs word, in runs long enough not to be shared by chance; a sentence German
 * keeps as English (a rule term as printed) is left out.
 */
const ENGLISH_RUNS = [
  ...new Set(
    Object.entries(EN as Record<string, string>)
      .filter(([key, en]) => (de as Record<string, string>)[key] !== en)
      .flatMap(([, en]) => en.replace(/\{[^{}]*(\{[^{}]*\}[^{}]*)*\}/g, '\u0000').split('\u0000'))
      .map((s) => s.trim())
      .filter((s) => s.length >= 14 && /[a-z]{3} [a-z]{2,}/.test(s)),
  ),
];

/** Everything a console output shows a player: the reply's embed and content, or the refusal. */
function shown(out: Awaited<ReturnType<ConsoleSession['run']>>): string {
  if (!out || 'quit' in out) return '';
  const j = out.json as { error?: string; content?: string; embed?: Record<string, unknown>; buttons?: { label?: string }[] };
  return [j.error, j.content, JSON.stringify(j.embed ?? {}), ...(j.buttons ?? []).map((b) => b.label)].filter(Boolean).join('\n');
}

const GAME = [
  '/game end reveal_sealed:true',
  '/game start system:hearts-of-tin name:Ligny',
  '/unit add name:Garde fields:"quality:elite strength:6 original:6 disorder:2"',
  '/unit list',
  '/unit show unit:Garde',
  '/rally unit:Garde',
  '/disorder strength:8 lost:2 melee:defeated',
  '/brigade brigade:Nord original:10 lost:6',
  '/rally disorder:3 sealed:true',
  '/game turn number:2',
  '/game status',
  '/history',
  '/stats',
  '/verify',
  '/verify key:true',
  '/export',
  '/game end reveal_sealed:true',
  '/pack list',
  '/odds roll:"rally disorder:2"',
  '/config log-channel',
];

describe('every reply in German', () => {
  it("each command's example, and a whole game with its review: nothing in English", async () => {
    // The bot's own dice: rolled, and a game's from its seeds (so /verify checks them as in production).
    const ledger = Ledger.open(tmpDb());
    const router = createRouter({ ledger, log: createLogger({ level: 'warn', write: () => undefined }), roller: cryptoRoller });
    const session = new ConsoleSession(router, { ...alice, isGm: true }, undefined, 'de');
    const lines = [...COMMANDS.map((c) => c.example), ...GAME];
    const english: Record<string, string[]> = {};
    const check = async (line: string) => {
      const text = shown(await session.run(line));
      expect(text, line).not.toBe('');
      if (line === '/verify') expect(text).toContain('"title":"Register intakt"');
      const runs = ENGLISH_RUNS.filter((run) => text.includes(run));
      if (runs.length) english[line] = runs;
    };
    for (const line of lines) await check(line);
    const rolled = (await session.run('/history')) as unknown as { json: { embed: { description: string } } };
    const id = /`([0-9a-z]{10})`/.exec(rolled.json.embed.description)?.[1];
    expect(id).toBeDefined();
    for (const line of [`/roll show id:${id}`, `/roll receipt id:${id}`, `/annotate id:${id} note:"gesehen"`, `/void id:${id} reason:"falsche Einheit"`])
      await check(line);
    session.close();
    ledger.close();
    expect(english).toEqual({});
  });
});
