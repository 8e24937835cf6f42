import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

// npm run mutation:tables mutates some tables by line range (they share a file with code). A range
// that drifts as the file changes would mutate code, or miss the table, without a word: each range
// must start on a table's declaration and end on the line that closes it.
describe('stryker.tables.config.mjs line ranges', () => {
  // The config's mutate list, read as text (a .mjs file with no types): its quoted path:from-to entries.
  const ranges = [...fs.readFileSync('stryker.tables.config.mjs', 'utf8').matchAll(/'([^']+\.ts:\d+-\d+)'/g)].map((m) => m[1]!);
  it.each(ranges)('%s covers whole tables', (entry) => {
    const [file, span] = entry.split(':') as [string, string];
    const [from, to] = span.split('-').map(Number) as [number, number];
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    expect(lines[from - 1], `${file}:${from}`).toMatch(/^(export )?const [A-Z_]+\b/);
    expect(lines[to - 1], `${file}:${to}`).toMatch(/^(};|];|} satisfies .*;|(export )?const [A-Z_]+\b.*;)$/);
  });
  it('has line ranges to check', () => expect(ranges.length).toBeGreaterThan(0));
});
