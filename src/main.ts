import { createRouter } from './app.js';
import { loadConfigOrExit } from './config.js';
import { MessageLinks } from './core/message-links.js';
import { createBot } from './discord/bot.js';
import { Ledger } from './ledger/ledger.js';
import { createLogger } from './log.js';

const config = loadConfigOrExit(['token']);
const log = createLogger({ level: config.logLevel, secrets: [config.discordToken] });

// A stray rejection inside a library must not take every other table's game down with it.
process.on('uncaughtException', (err) => log.error('uncaught exception', { err }));
process.on('unhandledRejection', (err) => log.error('unhandled rejection', { err }));

const ledger = Ledger.open(config.databasePath);
const links = new MessageLinks(ledger, log);
const bot = createBot({ token: config.discordToken!, apiBase: config.apiBase, router: createRouter({ ledger, log }), links, log });

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info('shutting down', { signal });
  try {
    await bot.stop();
  } finally {
    ledger.close();
    process.exit(0);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

log.info('starting', { database: config.databasePath, api: config.apiBase ?? 'discord.com' });
bot.start().catch((err) => {
  log.error('could not connect to Discord', { err });
  ledger.close();
  process.exit(1);
});
