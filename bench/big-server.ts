import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createRouter } from '../src/app.js';
import type { Actor } from '../src/core/command.js';
import { releaseFiles, type Reply } from '../src/core/command.js';
import type { Request } from '../src/core/router.js';
import { Ledger } from '../src/ledger/ledger.js';
import { createLogger } from '../src/log.js';

/**
 * The big server: one guild with `rows` rolls (five channels, a hundred players, 10,000 unit
 * names in every channel), made by the real append (real chain, real outcomes with their odds), and
 * the commands its players and GM run on it, timed from router in to reply out.
 */
export const BIG_GUILD = '910000000000000001';
export const UNITS = 10_000;
const CHANNELS = 5;
const PLAYERS = 100;

export const player: Actor = { guildId: BIG_GUILD, channelId: 'c2', userId: 'u7', userName: 'player', isGm: false };
export const gm: Actor = { ...player, userId: 'gm', userName: 'gm', isGm: true };
/** No attachment limit: the export walks every row (a real reply past Discord's limit is refused). */
export const UNLIMITED = 2 ** 45;

export const openRouter = (file: string) => {
  // As the bot opens it (open-store.ts): checkpoints in a worker.
  const ledger = Ledger.open(file, { checkpointInWorker: true });
  // Errors only, to stderr: a line that fails says why (a refusal or a roll is never logged).
  return { ledger, router: createRouter({ ledger, log: createLogger({ level: 'error' }) }) };
};

/** Fills the file; the first roll goes through the router so every copy carries a real outcome. */
export async function fillBigServer(file: string, rows: number): Promise<void> {
  const { ledger, router } = openRouter(file);
  const first = await router.handle({ type: 'command', name: 'rally', options: { disorder: 2, quality: 'militia', unit: 'Unit 0' }, actor: player });
  if (first.type !== 'message' || !first.record) throw new Error(`fill failed: ${JSON.stringify(first)}`);
  const template = ledger.get(BIG_GUILD, first.record.roll_id)!;
  const batch = ledger.db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const user = `u${i % PLAYERS}`;
      ledger.append({
        guildId: BIG_GUILD,
        channelId: `c${i % CHANNELS}`,
        userId: user,
        userName: user,
        command: 'rally',
        system: 'hearts-of-tin',
        kind: 'roll',
        unit: `Unit ${Math.floor(i / CHANNELS) % UNITS}`,
        input: template.input,
        dice: [(i % 6) + 1],
        outcome: template.outcome,
        result: template.result,
      });
    }
  });
  for (let i = 1; i < rows; i += 10_000) batch(i, Math.min(rows, i + 10_000));
  ledger.close();
}

export const command = (name: string, options: Record<string, unknown>, actor: Actor, attachmentLimit?: number): Request => ({
  type: 'command',
  name,
  options,
  actor,
  ...(attachmentLimit ? { attachmentLimit } : {}),
});

/** Runs a request and fails loudly on anything but a message (a bench must not time refusals). */
export async function expectAnswer(router: { handle(r: Request): Promise<Reply> }, req: Request, type: Reply['type'] = 'message'): Promise<Reply> {
  const reply = await router.handle(req);
  if (reply.type !== type) throw new Error(`${req.type} ${'name' in req ? req.name : ''} answered ${JSON.stringify(reply).slice(0, 300)}`);
  await releaseFiles(reply);
  return reply;
}

/**
 * A stream of /rally commands from other servers, one after another with a short pause, until
 * `until` settles: each one's latency, and the event loop's delay over the same time.
 */
export async function rallyStream(router: { handle(r: Request): Promise<Reply> }, until: Promise<unknown>) {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  let done = false;
  void until.finally(() => {
    done = true;
  });
  const latencies: number[] = [];
  for (let i = 0; !done || latencies.length < 20; i++) {
    const actor: Actor = { guildId: `92000000000000${String(i % 50).padStart(4, '0')}`, channelId: 'c1', userId: `p${i % 200}`, userName: 'p', isGm: false };
    const t = performance.now();
    await expectAnswer(router, command('rally', { disorder: 2, unit: `Stream ${i % 7}` }, actor));
    latencies.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 2));
  }
  await until;
  histogram.disable();
  return { latencies, loopP99: histogram.percentile(99) / 1e6, loopMax: histogram.max / 1e6 };
}
