import { COMMANDS } from '../../commands/index.js';
import { createRouter } from '../../src/app.js';
import { ConsoleSession, type ConsoleOutput } from '../../src/console/session.js';
import { cryptoRoller } from '../../src/dice/roller.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { createLogger } from '../../src/log.js';
import { alice } from './app.js';
import { tmpDb } from './tmp.js';

/**
 * A tour of every reply, as a GM plays it: each command's own example, then a whole Hearts of Tin
 * game and its review, then one roll looked up, receipted, annotated and voided. The bot's own dice
 * (a game's from its seeds, so /verify checks them as in production), in a locale's language.
 */
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

export type TourStop = { line: string; out: ConsoleOutput };

export async function tour(locale: string): Promise<TourStop[]> {
  const ledger = Ledger.open(tmpDb());
  const router = createRouter({ ledger, log: createLogger({ level: 'warn', write: () => undefined }), roller: cryptoRoller });
  const session = new ConsoleSession(router, { ...alice, isGm: true }, undefined, locale);
  const stops: TourStop[] = [];
  const go = async (line: string) => {
    const out = await session.run(line);
    stops.push({ line, out });
    return out;
  };
  try {
    for (const line of [...COMMANDS.map((c) => c.example), ...GAME]) await go(line);
    const history = (await go('/history')) as { json: { embed?: { description?: string } } } | null;
    const id = /`([0-9a-z]{10})`/.exec(history?.json.embed?.description ?? '')?.[1] ?? 'none';
    for (const line of [`/roll show id:${id}`, `/roll receipt id:${id}`, `/annotate id:${id} note:"seen"`, `/void id:${id} reason:"wrong unit"`])
      await go(line);
  } finally {
    session.close();
    ledger.close();
  }
  return stops;
}

/** Everything a console output shows a player: the reply's embed and content, or the refusal. */
export function shownText(out: ConsoleOutput): string {
  if (!out || 'quit' in out) return '';
  const j = out.json as { error?: string; content?: string; embed?: Record<string, unknown>; buttons?: { label?: string }[] };
  return [j.error, j.content, JSON.stringify(j.embed ?? {}), ...(j.buttons ?? []).map((b) => b.label)].filter(Boolean).join('\n');
}
