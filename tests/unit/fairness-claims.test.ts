import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Each claim README's Fairness section makes is held by named tests (the table in
// docs/ledger-and-fairness.md); a claim without its row, or a row naming a test that is not there, fails.
const ROOT = path.resolve(import.meta.dirname, '../..');
const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const doc = fs.readFileSync(path.join(ROOT, 'docs/ledger-and-fairness.md'), 'utf8');

const fairness = readme.slice(readme.indexOf('## Fairness'), readme.indexOf('\n## ', readme.indexOf('## Fairness') + 1));
const claims = [...fairness.matchAll(/^- \*\*(.+?)\*\*/gm)].map((m) => m[1]!);
const table = doc.slice(doc.indexOf('## Each claim, and the test that holds it'));
const rows = [...table.matchAll(/^\| ([^|]+?) \| ([^|]+?) \| ([^|]+?) \|$/gm)].filter((m) => m[1] !== 'claim' && !m[1]!.startsWith('---'));

describe("README's fairness claims", () => {
  it('are six, each with its row in the docs table', () => {
    expect(claims).toEqual([
      'Nobody can foresee a game die.',
      'Nobody can choose a game die.',
      "Nobody can put a roll in someone else's name in a tournament game.",
      'What an operator can still do:',
      'Players can be anyone:',
      'Without a beacon',
    ]);
    expect(rows.map((r) => r[1])).toEqual(claims);
  });

  it('name tests that exist, in the files named', () => {
    for (const [, claim, heldBy] of rows) {
      const tests = heldBy!.split(/; (?=tests\/)/).map((t) => t.split(' › ') as [string, string]);
      expect(tests.length, claim).toBeGreaterThan(0);
      for (const [file, title] of tests) {
        const source = fs.readFileSync(path.join(ROOT, file), 'utf8');
        // A title is written in the test as a string literal; quotes in it may be escaped or typographic.
        expect(source.replace(/\\'/g, "'"), `${claim}: ${file} › ${title}`).toContain(title);
      }
    }
  });
});
