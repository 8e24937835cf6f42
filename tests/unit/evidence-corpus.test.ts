import { describe, expect, it } from 'vitest';
import { verifyExport } from '../../src/verify/verify-export.js';
import { evidenceCorpus, verifyInBotWithEvidence } from '../helpers/verify-corpus-evidence.js';

// The evidence corpus read by the verification core in this process: the verdict written by hand
// and the line it names (the differential test holds the CLI and verify.html to the same report).
describe('the evidence corpus, read by the core', () => {
  it('gives each crafted export its verdict and names what is wrong', async () => {
    for (const entry of await evidenceCorpus()) {
      const report = verifyExport(entry.bytes);
      expect(report.lines.join('\n'), entry.name).toContain(entry.says);
      expect(report.ok, `${entry.name}\n${report.lines.join('\n')}`).toBe(entry.ok);
    }
  });

  it("gives each the same verdict in the bot's /verify, over the same rows and kept requests", async () => {
    for (const entry of await evidenceCorpus()) {
      // A request left out as pending is an export's notion: the bot always holds the bytes.
      if (entry.bytes.includes('"pending":true')) continue;
      const text = await verifyInBotWithEvidence(entry.bytes.toString('utf8'));
      // The bot's reply lists a game's lines only when something fails.
      if (!entry.ok) expect(text, entry.name).toContain(entry.says);
      expect(text.includes('FAILED'), `${entry.name}\n${text}`).toBe(!entry.ok);
    }
  });
});
