import { createHash } from 'node:crypto';

/**
 * The chain line's one run, in its own process, as the bot runs it: node alone on the built ledger
 * (a worker thread inherits its parent's flags, and under tsx each would first load tsx's loader,
 * ~100 ms a start the bot never pays). Times /verify's walk, then SHA-256 alone over the same
 * bytes, warmed up first so the baseline is at its fastest; prints both as rows per second.
 */
const [file, guildId] = process.argv.slice(2);
const built = (m) => import(new URL(`../dist/src/ledger/${m}`, import.meta.url).href);
const { Ledger } = await built('ledger.js');
const { storedCanonical } = await built('chain.js');
const ledger = Ledger.open(file);
const rows = ledger.count(guildId);
let t = performance.now();
const report = await ledger.verifyInChunks(guildId);
const ours = rows / ((performance.now() - t) / 1000);
if (!report.ok || report.count !== rows) throw new Error(`chain did not verify: ${JSON.stringify(report)}`);
const bytes = ledger.db
  .prepare('SELECT * FROM rolls WHERE guild_id = ? ORDER BY guild_seq')
  .all(guildId)
  .map((r) => ({ prev: String(r.prev_hash), canonical: storedCanonical(r) }));
ledger.close();
const hashAll = () => {
  for (const b of bytes) createHash('sha256').update(b.prev).update(b.canonical).digest('hex');
};
hashAll();
t = performance.now();
hashAll();
const base = rows / ((performance.now() - t) / 1000);
process.stdout.write(`${JSON.stringify({ ours, base })}\n`);
