import { describe, expect, it } from 'vitest';
import { verifyExport } from '../../src/verify/verify-export.js';
import { exportFixtures } from '../helpers/export-fixtures.js';

// The fixtures verify.html is tried on in Chromium (tests/e2e/verify-page.e2e.test.ts), through the
// Node verifier: each gives its verdict and names its row.
const fixtures = await exportFixtures();

describe('the shared export fixtures through the Node verifier', () => {
  it.each(fixtures.map((f) => [f.name, f] as const))('%s', (_name, f) => {
    const r = verifyExport(f.text, f.head ? { head: f.head } : {});
    expect(r.ok).toBe(f.ok);
    expect(r.lines.join('\n')).toContain(f.says);
  });
});
