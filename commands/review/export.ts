import { gmOnly } from '../../src/core/access.js';
import { defineCommand } from '../../src/core/command.js';
import { filterOptions, toFilter } from '../../src/core/filters.js';
import { noticeEmbed } from '../../src/render/embed.js';
import { toCsv, toJsonl, type ExportRow } from '../../src/render/export.js';

export default defineCommand({
  name: 'export',
  access: gmOnly('export the ledger'),
  description: "GM: this server's ledger as CSV and JSON Lines, every field and hash",
  example: '/export since:7d',
  // Reads the whole ledger: a full bucket's worth.
  cost: 10,
  options: filterOptions,
  run(ctx, o) {
    const filter = toFilter(ctx, o, true);
    const { history } = ctx.services.ledger;
    // Every row: rolls, rulings, decisions, voids, notes, reveals, game, roster and setting changes.
    const rows = [...history.all({ ...filter, kinds: 'all' })];
    const messages = history.messages(rows.map((r) => r.id));
    const out: ExportRow[] = rows.map((r) => ({ ...r, message_id: messages.get(r.id) ?? null }));
    const stamp = ctx.services.ledger.timestamp().slice(0, 10);
    const filtered = Object.values(o).some((v) => v !== undefined);
    const note = filtered
      ? 'Filtered: the hash chain can be checked only over an unfiltered export (`npm run verify` will name the first gap).'
      : 'Check it anywhere with `npm run verify -- <file>.jsonl`: the hash chain, and the dice of every game whose seed is revealed.';
    return {
      type: 'message',
      ephemeral: true,
      embed: noticeEmbed('Ledger export', `${out.length} row${out.length === 1 ? '' : 's'}. ${note}`),
      buttons: [],
      files: [
        { name: `ledger-${stamp}.csv`, data: Buffer.from(toCsv(out), 'utf8') },
        { name: `ledger-${stamp}.jsonl`, data: Buffer.from(toJsonl(out), 'utf8') },
      ],
    };
  },
});
