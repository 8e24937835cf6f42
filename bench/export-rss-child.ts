import { BIG_GUILD, command, expectAnswer, gm, openRouter, player, UNLIMITED } from './big-server.js';

/**
 * The memory side of the big server's /export line, in its own process so nothing else has touched the
 * heap: the idle RSS of a ready router on the big ledger, then the peak RSS while a GM exports every
 * row of it.
 */
const [file] = process.argv.slice(2) as [string];

async function main() {
  const { ledger, router } = openRouter(file);
  await expectAnswer(router, command('history', {}, player));
  await new Promise((r) => setTimeout(r, 200));
  globalThis.gc?.();
  const idle = process.memoryUsage().rss;
  let peak = idle;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().rss);
  };
  const timer = setInterval(sample, 5);
  const t = performance.now();
  const reply = await expectAnswer(router, command('export', {}, gm, UNLIMITED));
  const ms = performance.now() - t;
  clearInterval(timer);
  sample();
  // The count as the reply writes it, thousands grouped ("20,000 rows").
  const rows = reply.type === 'message' ? Number(/^([\d,]+) rows/.exec(String(reply.embed.description))?.[1]?.replaceAll(',', '')) : 0;
  ledger.close();
  process.stdout.write(`${JSON.stringify({ idle, peak, ms, rows, guild: BIG_GUILD })}\n`);
}

void main();
