import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { InteractionOutcome } from '../core/responder.js';
import type { LedgerStore } from '../ledger/store.js';

/** One serving connection: mode gateway/http/shards, and the shard's id ('' when unsharded). */
export type Serving = { mode: string; shard: string; up: boolean };

const SECONDS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The bot's Prometheus metrics (prom-client, on its own registry so that several bots in one test
 * process do not share counters): commands by name and result, latency of the whole command and of
 * the ledger's transactions, rate-limited refusals, whether it serves, the ledger's rows, and
 * Node's own (event-loop delay, heap, GC) from prom-client's default collectors.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly commands = new Counter({
    name: 'morale_commands_total',
    help: 'Interactions answered, by command and result',
    labelNames: ['command', 'result'],
    registers: [this.registry],
  });
  private readonly commandSeconds = new Histogram({
    name: 'morale_command_seconds',
    help: 'Time from an interaction reaching the bot to its answer being sent',
    labelNames: ['command'],
    buckets: SECONDS,
    registers: [this.registry],
  });
  private readonly ledgerSeconds = new Histogram({
    name: 'morale_ledger_transaction_seconds',
    help: "Time of one ledger transaction, begin to commit (a command's unit of work: its reads, its appends)",
    buckets: SECONDS,
    registers: [this.registry],
  });
  private readonly limited = new Counter({
    name: 'morale_rate_limited_total',
    help: 'Commands refused because the player sent them too fast',
    registers: [this.registry],
  });

  constructor(o: { rows?: () => Promise<number>; serving?: () => Serving[] } = {}) {
    collectDefaultMetrics({ register: this.registry });
    // The runtime's exact version tells a reader which published flaws to try: not ours to hand out.
    this.registry.removeSingleMetric('nodejs_version_info');
    const { rows, serving } = o;
    if (serving)
      new Gauge({
        name: 'morale_serving',
        help: '1 while interactions are served: the gateway connected, or the HTTP server listening (one series per shard under a shard manager)',
        labelNames: ['mode', 'shard'],
        registers: [this.registry],
        collect() {
          for (const s of serving()) this.set({ mode: s.mode, shard: s.shard }, s.up ? 1 : 0);
        },
      });
    if (rows)
      new Gauge({
        name: 'morale_ledger_rows',
        help: 'Rows in the ledger, every guild',
        registers: [this.registry],
        async collect() {
          this.set(await rows());
        },
      });
  }

  interaction(e: InteractionOutcome): void {
    this.commands.inc({ command: e.command, result: e.result });
    this.commandSeconds.observe({ command: e.command }, e.ms / 1000);
    if (e.result === 'rate_limited') this.limited.inc();
  }

  ledgerTransaction(seconds: number): void {
    this.ledgerSeconds.observe(seconds);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

/** The store with every transaction timed into the metrics; everything else passes through untouched. */
export function timedStore(store: LedgerStore, metrics: Metrics): LedgerStore {
  const transaction: LedgerStore['transaction'] = async (work, guildId, claim) => {
    const start = performance.now();
    try {
      return await store.transaction(work, guildId, claim);
    } finally {
      metrics.ledgerTransaction((performance.now() - start) / 1000);
    }
  };
  return new Proxy(store, { get: (target, prop) => (prop === 'transaction' ? transaction : Reflect.get(target, prop, target)) });
}
