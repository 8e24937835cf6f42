import { createRouter } from '../src/app.js';
import type { BeaconChain } from '../src/beacon/chain.js';
import { relaySource } from '../src/beacon/relay.js';
import { MessageLinks } from '../src/core/message-links.js';
import { createHttpBot } from '../src/discord/http-bot.js';
import { publicKeyFromHex } from '../src/discord/signature.js';
import { Ledger } from '../src/ledger/ledger.js';
import { openStore } from '../src/ledger/open-store.js';
import type { PgStore } from '../src/ledger/postgres/pg-store.js';
import { sqliteStore, type LedgerStore } from '../src/ledger/store.js';
import { silentLogger } from '../src/log.js';

/**
 * The bot of the tournament hour (bench/tournament.ts) in its own process, as in production: the
 * fake Discord and the players are the parent's, so neither their CPU nor their event loop is
 * counted here. Args: apiBase, public key (hex), token, `sqlite:<file>` or a PostgreSQL URL, and
 * optionally a beacon chain (JSON) and its relay's URL.
 * Says `{ port }` once serving; answers `cpu` with its CPU (µs) and rolls recorded so far.
 */
const [apiBase, keyHex, token, ledgerArg, chainJson, relayUrl] = process.argv.slice(2) as [string, string, string, string, string?, string?];
// With a beacon chain and its relay: every game a beacon game, as a bot with a beacon makes them.
const beacon = chainJson && relayUrl ? relaySource(JSON.parse(chainJson) as BeaconChain, { urls: [relayUrl] }) : undefined;
const sqlite = ledgerArg.startsWith('sqlite:') ? Ledger.open(ledgerArg.slice(7), { checkpointInWorker: true }) : undefined;
// PostgreSQL opened as the bot opens it (its pool's connections opened at start and kept).
const store: LedgerStore = sqlite ? sqliteStore(sqlite) : await openStore({ databaseUrl: ledgerArg, databasePath: '' }, undefined, { keepOpen: true });
const router = createRouter({ ledger: store, log: silentLogger, ...(beacon ? { beacon } : {}) });
const bot = createHttpBot({
  token,
  apiBase,
  router,
  links: new MessageLinks(store, silentLogger),
  log: silentLogger,
  publicKey: publicKeyFromHex(keyHex),
  port: 0,
  host: '127.0.0.1',
  // Every request here comes from one address; Discord's come from many: no per-address cap.
  connectionsPerAddress: 0,
});
await bot.start();
const rolls = async () =>
  sqlite
    ? (sqlite.db.prepare("SELECT count(*) AS n FROM rolls WHERE kind = 'roll'").get() as { n: number }).n
    : Number((await (store as PgStore).ledger.pool.query("SELECT count(*) AS n FROM rolls WHERE kind = 'roll'")).rows[0].n);
process.on('message', async (m) => {
  if (m === 'cpu') {
    // The links fetched once the answers are out are part of what a roll costs.
    await bot.idle();
    const used = process.cpuUsage();
    process.send?.({ cpuUs: used.user + used.system, rolls: await rolls() });
  } else if (m === 'stop') {
    await bot.stop();
    await store.close();
    process.exit(0);
  }
});
process.send?.({ port: bot.port() });
