import { Client, Events, GatewayIntentBits } from 'discord.js';

/**
 * One side of the memory benchmark, in its own process: `bot` is the Morale Officer process as
 * `npm start` builds it; `bare` is a plain discord.js client with the same intent. Each connects
 * to the fake Discord, waits for ready, settles, and prints its resident memory.
 */
const [mode, apiBase, token, dbPath] = process.argv.slice(2) as [string, string, string, string];

async function main() {
  let ready: Promise<void>;
  if (mode === 'bot') {
    const { createRouter } = await import('../src/app.js');
    const { createBot } = await import('../src/discord/bot.js');
    const { MessageLinks } = await import('../src/core/message-links.js');
    const { Ledger } = await import('../src/ledger/ledger.js');
    const { silentLogger } = await import('../src/log.js');
    const ledger = Ledger.open(dbPath);
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
