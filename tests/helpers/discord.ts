import { createBot, type Bot } from '../../src/discord/bot.js';
import { FakeDiscord } from '../e2e/fake-discord.js';
import { testApp, type TestApp } from './app.js';

export type Harness = { fake: FakeDiscord; app: TestApp; bot: Bot; stop(): Promise<void> };

/** A local fake Discord, the real router and ledger, and the real discord.js client logged in to it. */
export async function startHarness(token: string, guilds: string[]): Promise<Harness> {
  const fake = await new FakeDiscord(guilds).start();
  const app = testApp();
  const bot = createBot({ token, apiBase: fake.apiBase, router: app.router, log: app.log });
  await bot.start();
  return {
    fake,
    app,
    bot,
    async stop() {
      await bot.stop();
      await fake.stop();
      app.ledger.close();
    },
  };
}
