import type { BeaconSource } from '../../src/beacon/relay.js';
import { createRouter } from '../../src/app.js';
import type { Actor, GuildCommands, Reply } from '../../src/core/command.js';
import type { Router } from '../../src/core/router.js';
import { fixedRoller, type Roller } from '../../src/dice/roller.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { createLogger, type Logger } from '../../src/log.js';
import { loadOrCreateKeys } from '../../src/ops/signing-key.js';
import type { Signer } from '../../src/verify/receipt.js';
import { tmpDb } from './tmp.js';

export const alice: Actor = { guildId: 'g1', channelId: 'c1', userId: 'alice', userName: 'Alice', isGm: false };
export const bob: Actor = { ...alice, userId: 'bob', userName: 'Bob' };
export const gm: Actor = { ...alice, userId: 'gm', userName: 'Game Master', isGm: true };

/** Dice the test can keep feeding: push faces, and the router's rolls take them in order. */
export function queueRoller(): Roller & { push(...faces: number[]): void; pending(): number; clear(): void } {
  const queue: number[] = [];
  return {
    push: (...f) => void queue.push(...f),
    pending: () => queue.length,
    clear: () => void queue.splice(0),
    roll: (sides) => fixedRoller([queue.shift() ?? NaN]).roll(sides),
  };
}

export type TestApp = { router: Router; ledger: Ledger; dice: ReturnType<typeof queueRoller>; logs: string[]; log: Logger; file: string; signer: Signer };

/** The real router and a real ledger file, with pinned dice and captured logs. */
/** `secrets`: strings the logger redacts, as the production logger redacts the token. */
export function testApp(
  file = tmpDb(),
  /** `beacon`: new games are beacon games (their dice from its rounds, never the pinned ones). */
  options: { roller?: Roller; secrets?: string[]; beacon?: BeaconSource; guildCommands?: GuildCommands } = {},
): TestApp {
  const ledger = Ledger.open(file);
  const dice = queueRoller();
  const logs: string[] = [];
  const log = createLogger({ level: 'debug', write: (l) => logs.push(l), secrets: options.secrets ?? [] });
  // Game rolls take the same pinned dice, so a test states every die whatever the channel.
  const roller = options.roller ?? dice;
  // A receipt key of its own, known to the ledger as the bot's is.
  const keys = loadOrCreateKeys(`${file}.signing-key.json`);
  for (const r of keys.records) ledger.keys.register(r);
  const games = options.beacon ? { beacon: options.beacon } : { gameRoller: () => roller };
  const guildCommands = options.guildCommands ? { guildCommands: options.guildCommands } : {};
  return { router: createRouter({ ledger, log, roller, ...games, ...guildCommands, signer: keys.signer }), ledger, dice, logs, log, file, signer: keys.signer };
}

export const command = (app: TestApp, actor: Actor, name: string, options: Record<string, unknown>) =>
  app.router.handle({ type: 'command', name, options, actor });

export const press = (app: TestApp, actor: Actor, customId: string) => app.router.handle({ type: 'button', customId, actor });

export function expectMessage(reply: Reply) {
  if (reply.type !== 'message' && reply.type !== 'update') throw new Error(`expected a message, got ${JSON.stringify(reply)}`);
  return reply;
}

export function expectError(reply: Reply): string {
  if (reply.type !== 'error') throw new Error(`expected an error, got ${JSON.stringify(reply)}`);
  return reply.message;
}

/** A roll through the router with these dice pinned; every pinned die must be used, or it throws. */
export async function rollWith(app: TestApp, name: string, options: Record<string, unknown>, dice: readonly number[], actor: Actor = alice) {
  app.dice.push(...dice);
  const r = expectMessage(await command(app, actor, name, options));
  if (app.dice.pending()) throw new Error(`/${name} left ${app.dice.pending()} of the pinned dice unused`);
  return r;
}

export const subcommand = (app: TestApp, actor: Actor, name: string, sub: string, options: Record<string, unknown> = {}) =>
  app.router.handle({ type: 'command', name, subcommand: sub, options, actor });

/** A roster unit's fields in the actor's channel game (undefined once removed). */
export function rosterFields(app: TestApp, name: string, actor: Actor = alice) {
  const game = app.ledger.roster.activeGame(actor.guildId, actor.channelId)!;
  return app.ledger.roster.unitByName(game.id, name)?.fields;
}

/** /odds' one option: the roll as it would be typed (`rally disorder:2`). */
export const oddsRoll = (name: string, options: Record<string, unknown>) => ({
  roll: [name, ...Object.entries(options).map(([k, v]) => `${k}:${String(v)}`)].join(' '),
});

/** A unit's fields as /unit add takes them: `name:value …` in one option. */
export const fieldsText = (f: Record<string, unknown>) =>
  Object.entries(f)
    .map(([k, v]) => `${k}:${String(v)}`)
    .join(' ');

/** A fresh app with a game of `system` started by Alice and these units added by `owner`. */
export async function appWithGame(system: string, units: Record<string, Record<string, unknown>> = {}, owner: Actor = alice): Promise<TestApp> {
  const app = testApp();
  expectMessage(await subcommand(app, alice, 'game', 'start', { system, name: 'G' }));
  for (const [name, f] of Object.entries(units))
    expectMessage(await subcommand(app, owner, 'unit', 'add', { name, ...(Object.keys(f).length ? { fields: fieldsText(f) } : {}) }));
  return app;
}

/** `n` Hearts of Tin rolls by Alice in g1/c1 straight into the ledger (units U0, U1, …; dice cycle 1–6), in one transaction. */
export function fillRolls(app: TestApp, n: number): void {
  app.ledger.db.transaction(() => {
    for (let i = 0; i < n; i++) {
      app.ledger.append({
        guildId: 'g1',
        channelId: 'c1',
        userId: 'alice',
        userName: 'Alice',
        command: 'rally',
        system: 'hearts-of-tin',
        kind: 'roll',
        unit: `U${i}`,
        input: { disorder: 1 },
        dice: [(i % 6) + 1],
        outcome: { result: 'rally', steps: [] },
        result: 'rally',
      });
    }
  })();
}
