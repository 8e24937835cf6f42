import { Client, Events, GatewayIntentBits } from 'discord.js';

/**
 * One side of the memory benchmark, in its own process: `bot` is the Morale Officer process as
 * `npm start` runs it (the built code); `bare` is a plain discord.js client with the same intent. Each connects
 * to the fake Discord, waits for ready, settles, and prints its resident memory.
 */
const [mode, apiBase, token, dbPath] = process.argv.slice(2) as [string, string, string, string];

async function main() {
  let ready: Promise<void>;
  if (mode === 'bot') {
    // The built code, as `npm start` runs it (the bench builds first): not the sources through tsx,
    // whose transpiled modules and source maps the production process never holds.
    const built = (m: string) => import(new URL(`../dist/src/${m}`, import.meta.url).href);
    const { createRouter } = (await built('app.js')) as typeof import('../src/app.js');
    const { createBot } = (await built('discord/bot.js')) as typeof import('../src/discord/bot.js');
    const { MessageLinks } = (await built('core/message-links.js')) as typeof import('../src/core/message-links.js');
    const { Ledger } = (await built('ledger/ledger.js')) as typeof import('../src/ledger/ledger.js');
    const { silentLogger } = (await built('log.js')) as typeof import('../src/log.js');
    // As the bot opens it (open-store.ts): the checkpoint worker starts only once the WAL is busy.
    const ledger = Ledger.open(dbPath, { checkpointInWorker: true });
    const bot = createBot({
      token,
      apiBase,
      router: createRouter({ ledger, log: silentLogger }),
      links: new MessageLinks(ledger, silentLogger),
      log: silentLogger,
    });
    ready = bot.start();
  } else {
    const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: apiBase } });
    ready = new Promise((resolve) => client.once(Events.ClientReady, () => resolve()));
    await client.login(token);
  }
  await ready;
  await new Promise((r) => setTimeout(r, 1500));
  globalThis.gc?.();
  await new Promise((r) => setTimeout(r, 200));
  process.stdout.write(`${JSON.stringify({ rss: process.memoryUsage().rss })}\n`);
  process.exit(0);
}

void main();
