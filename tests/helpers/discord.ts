import { REST } from '@discordjs/rest';
import { guildCommandsVia } from '../../src/discord/guild-commands.js';
import { relaySource, type BeaconSource } from '../../src/beacon/relay.js';
import type { BeaconChain } from '../../src/beacon/chain.js';
import type { BeaconRound } from '../../src/beacon/verify-round.js';
import { FakeRelay } from './beacon-relay.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MessageLinks } from '../../src/core/message-links.js';
import type { Request } from '../../src/core/router.js';
import { createBot, type Bot } from '../../src/discord/bot.js';
import { createHttpBot, type HttpBot } from '../../src/discord/http-bot.js';
import { publicKeyFromHex } from '../../src/discord/signature.js';
import { FakeDiscord } from '../e2e/fake-discord.js';
import { testApp, type TestApp } from './app.js';

export type Harness = { fake: FakeDiscord; app: TestApp; bot: Bot; stop(): Promise<void> };

/** A local fake Discord, the real router and ledger, and the real discord.js client logged in to it. */
export async function startHarness(
  token: string,
  guilds: string[],
  options: { deferAfterMs?: number; slow?: (name: string) => number; slowUnit?: string; beacon?: BeaconSource } = {},
): Promise<Harness> {
  const fake = await new FakeDiscord(guilds).start();
  // The ledger's folder lives as long as the harness (a per-test folder would be removed under an
  // open ledger after the first test, and a second connection to it, an export's worker, fails).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'morale-officer-harness-'));
  // The bot's logger redacts its token, as src/main.ts wires it.
  // Rule packs register their commands with the fake, as src/main.ts wires it (the application id read from the token).
  const guildCommands = guildCommandsVia(new REST({ version: '10', api: fake.apiBase }).setToken(token));
  const app = testApp(path.join(dir, 'ledger.db'), { secrets: [token], guildCommands, ...(options.beacon ? { beacon: options.beacon } : {}) });
  // A test may make a command slow, to see the responder defer it.
  const router = {
    handle: async (req: Request) => {
      const unitIsSlow = req.type === 'command' && options.slowUnit !== undefined && req.options.unit === options.slowUnit;
      const ms = req.type === 'command' ? (unitIsSlow ? (options.deferAfterMs ?? 0) + 300 : (options.slow?.(req.name) ?? 0)) : 0;
      if (ms) await new Promise((r) => setTimeout(r, ms));
      return app.router.handle(req);
    },
  };
  const bot = createBot({
    token,
    apiBase: fake.apiBase,
    router,
    links: new MessageLinks(app.ledger, app.log),
    log: app.log,
    ...(options.deferAfterMs !== undefined ? { deferAfterMs: options.deferAfterMs } : {}),
  });
  await bot.start();
  return {
    fake,
    app,
    bot,
    async stop() {
      await bot.stop();
      await fake.stop();
      app.ledger.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type HttpHarness = { fake: FakeDiscord; app: TestApp; bot: HttpBot; url: string; stop(): Promise<void> };

/**
 * The bot in HTTP interactions mode on loopback, behind a fake Discord that signs and POSTs as
 * Discord does, over a ledger in a folder of its own; `beacon` makes new games beacon games.
 */
export async function startHttpHarness(token: string, guilds: string[], options: { beacon?: BeaconSource } = {}): Promise<HttpHarness> {
  const fake = await new FakeDiscord(guilds).start();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'morale-officer-http-harness-'));
  const guildCommands = guildCommandsVia(new REST({ version: '10', api: fake.apiBase }).setToken(token));
  const app = testApp(path.join(dir, 'ledger.db'), { secrets: [token], guildCommands, ...(options.beacon ? { beacon: options.beacon } : {}) });
  const bot = createHttpBot({
    token,
    apiBase: fake.apiBase,
    router: app.router,
    links: new MessageLinks(app.ledger, app.log),
    log: app.log,
    publicKey: publicKeyFromHex(fake.publicKeyHex),
    port: 0,
    host: '127.0.0.1',
  });
  await bot.start();
  return {
    fake,
    app,
    bot,
    url: `http://127.0.0.1:${bot.port()}/interactions`,
    async stop() {
      await bot.stop();
      await fake.stop();
      app.ledger.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The HTTP harness on a beacon served by a local relay of `chain` (the beacon's HTTP tests): one stop for both. */
export async function startBeaconHttpHarness(
  token: string,
  guilds: string[],
  chain: BeaconChain,
  sign: (round: number) => BeaconRound,
): Promise<HttpHarness & { relay: FakeRelay }> {
  const relay = await new FakeRelay(chain, sign).start();
  const h = await startHttpHarness(token, guilds, { beacon: relaySource(chain, { urls: [relay.url], retryMs: 100 }) });
  return {
    ...h,
    relay,
    async stop() {
      await h.stop();
      await relay.stop();
    },
  };
}
