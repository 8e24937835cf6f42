import { gmOnly } from '../../src/core/access.js';
import { defineCommand } from '../../src/core/command.js';
import { filterOptions, toFilter } from '../../src/core/filters.js';
import { refuse } from '../../src/core/user-error.js';
import { noticeEmbed } from '../../src/render/embed.js';
import { toCsv, toJsonl, type ExportRow } from '../../src/render/export.js';

/** Rows read at a time. */
const EXPORT_CHUNK = 1_000;
const megabytes = (bytes: number) => Math.round((bytes / (1024 * 1024)) * 10) / 10;

export default defineCommand({
  name: 'export',
  access: gmOnly('export the ledger'),
  description: "GM: this server's ledger as CSV and JSON Lines, every field and hash",
  example: '/export since:7d',
  // Reads the whole ledger: a full bucket's worth.
  cost: 10,
  options: filterOptions,
  async run(ctx, o) {
    const filter = { ...toFilter(ctx, o, true), kinds: 'all' as const };
    const { history } = ctx.services.ledger;
    const limit = ctx.attachmentLimit;
    const csv: string[] = [];
    const jsonl: string[] = [];
    let bytes = 0;
    let count = 0;
    // Every row (rolls, rulings, decisions, voids, notes, reveals, game, roster and setting changes),
    // read in chunks: the files grow only up to Discord's limit for this reply, then the export is
    // refused; the event loop is given back between chunks (issue 14).
    for await (const chunk of history.chunks(filter, EXPORT_CHUNK)) {
      const messages = history.messages(chunk.map((r) => r.id));
      const rows: ExportRow[] = chunk.map((r) => ({ ...r, message_id: messages.get(r.id) ?? null }));
      const part = { csv: toCsv(rows, count === 0), jsonl: toJsonl(rows) };
      bytes += Buffer.byteLength(part.csv) + Buffer.byteLength(part.jsonl);
      if (bytes > limit) {
        refuse(
          `The export passes ${megabytes(limit)} MB, the most Discord takes in this reply, after ${count + chunk.length} rows. Narrow it with since:, until:, game:, system: or user: (e.g. /export since:30d) and export it in parts.`,
        );
      }
      csv.push(part.csv);
      jsonl.push(part.jsonl);
      count += chunk.length;
    }
    const stamp = ctx.services.ledger.timestamp().slice(0, 10);
    const filtered = Object.values(o).some((v) => v !== undefined);
    const note = filtered
      ? 'Filtered: the hash chain can be checked only over an unfiltered export (`npm run verify` will name the first gap).'
      : 'Check it anywhere with `npm run verify -- <file>.jsonl`: the hash chain, and the dice of every game whose seed is revealed.';
    return {
      type: 'message',
      ephemeral: true,
      embed: noticeEmbed('Ledger export', `${count} row${count === 1 ? '' : 's'}. ${note}`),
      buttons: [],
      files: [
        // An empty export still has the CSV header.
        { name: `ledger-${stamp}.csv`, data: Buffer.from(count ? csv.join('') : toCsv([]), 'utf8') },
        { name: `ledger-${stamp}.jsonl`, data: Buffer.from(jsonl.join(''), 'utf8') },
      ],
    };
  },
});
