import { describe, expect, it } from 'vitest';
import { verifyExport } from '../../src/verify/verify-export.js';
import { erasedCorpus, rowsOf } from '../helpers/verify-corpus.js';
import { verifyInBot } from '../helpers/verify-in-bot.js';

// An erasure's exports read by the verification core in this process and by the bot's /verify over
// the same rows (the differential test holds the CLI and verify.html to the same report): the real
// one holds, with the erased rows named; an edit a host hides behind an erasure does not.
describe('the erasure corpus', () => {
  it('gives each export its verdict, and names what is wrong', async () => {
    for (const entry of await erasedCorpus()) {
      const report = verifyExport(entry.bytes);
      expect(report.lines.join('\n'), entry.name).toContain(entry.says);
      expect(report.ok, `${entry.name}\n${report.lines.join('\n')}`).toBe(entry.ok);
    }
  });

  it("gives each the same verdict in the bot's /verify", async () => {
    for (const entry of await erasedCorpus()) {
      const text = await verifyInBot(rowsOf(entry.bytes.toString('utf8')).filter((r) => !('signing_key' in r)));
      expect(text.startsWith(entry.ok ? 'Ledger intact' : 'Ledger broken'), `${entry.name}\n${text}`).toBe(true);
      if (!entry.ok) expect(text, entry.name).toContain(entry.says);
    }
  });
});
