import { createRouter } from '../src/app.js';
import { PgStore } from '../src/ledger/postgres/pg-store.js';
import { silentLogger } from '../src/log.js';

/**
 * One bot process's worth of adjudications on a PostgreSQL ledger (bench line 12): `n` rallies
 * through the whole router, spread over 50 guilds of its own, `concurrency` at a time (the interactions
 * a process has in flight). Sends the elapsed milliseconds and its own CPU milliseconds once all are recorded.
 */
const [url, nArg, offsetArg, concurrencyArg] = process.argv.slice(2);
const n = Number(nArg);
const offset = Number(offsetArg);
const store = await PgStore.connect(url!, { max: 10 });
const router = createRouter({ ledger: store, log: silentLogger });
const rally = (i: number) =>
  router.handle({
    type: 'command',
    name: 'rally',
    options: { disorder: 2, quality: 'militia', unit: 'Bench Battalion' },
    actor: { guildId: `g${offset + (i % 50)}`, channelId: 'c1', userId: 'u1', userName: 'bench', isGm: false },
  });
for (let i = 0; i < 20; i++) await rally(i);
process.send?.('ready');
await new Promise<void>((resolve) => process.once('message', () => resolve()));
const started = performance.now();
const cpu = process.cpuUsage();
let next = 0;
await Promise.all(
  Array.from({ length: Number(concurrencyArg) }, async () => {
    while (next < n) {
      const r = await rally(next++);
      if (r.type !== 'message') throw new Error(JSON.stringify(r));
    }
  }),
);
const used = process.cpuUsage(cpu);
process.send?.({ ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 });
await store.close();
