import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/ledger-and-fairness.md lists each check of a signed request with the tests that hold it: a
// row naming a test that is not there fails, as the fairness table's rows do.
const ROOT = path.resolve(import.meta.dirname, '../..');
const doc = fs.readFileSync(path.join(ROOT, 'docs/ledger-and-fairness.md'), 'utf8');
const from = doc.indexOf('### Each check of a signed request, and the test that holds it');
const table = doc.slice(from, doc.indexOf('\n## ', from));
const rows = [...table.matchAll(/^\| ([^|]+?) \| ([^|]+?) \| ([^|]+?) \|$/gm)].filter((m) => m[1] !== 'check' && !m[1]!.startsWith('---'));

describe('the checks of a signed request, in the docs', () => {
  it('name tests that exist, in the files named', () => {
    expect(rows.length).toBeGreaterThanOrEqual(6);
    for (const [, check, heldBy] of rows) {
      for (const [file, title] of heldBy!.split(/; (?=tests\/)/).map((t) => t.split(' › ') as [string, string])) {
        const source = fs.readFileSync(path.join(ROOT, file), 'utf8');
        expect(source.replace(/\\'/g, "'"), `${check}: ${file} › ${title}`).toContain(title);
      }
    }
  });
});
