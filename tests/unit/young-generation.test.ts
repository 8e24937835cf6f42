import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * The young generation's size (MiB) after a burst of short-lived objects and a full collection, in
 * a fresh node, with the module or without. Read before the collection, on a busy machine it was
 * caught mid-step (4.25, 6.75, once 10.25 MiB) and back to its 4 at the next collection; what grew
 * without the module stays grown through it.
 */
async function youngAfterBurst(withModule: boolean): Promise<number> {
  const code = `${withModule ? "await import('./src/ops/young-generation.ts');" : ''}
    const v8 = await import('node:v8');
    let n = 0;
    for (let r = 0; r < 40; r++) { const a = []; for (let i = 0; i < 100000; i++) a.push({ i, s: 'x' + i }); n += a.length; }
    globalThis.gc();
    const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    console.log(space.space_size / 2 ** 20);`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return Number(stdout.trim());
}

describe("the production entry's young generation", () => {
  it('is set before anything else loads but the Node check; the bot and its libraries are imported after it', () => {
    const entry = readFileSync(`${ROOT}main.ts`, 'utf8');
    const imports = [...entry.matchAll(/^import '([^']+)';/gm)].map((m) => m[1]);
    expect(imports).toEqual(['./src/ops/supported-node.js', './src/ops/young-generation.js']);
    expect([...entry.matchAll(/^await import\('([^']+)'\);/gm)].map((m) => m[1])).toEqual(['./src/main.js']);
  });

  it('stays small through a burst of allocations, where it would grow without the module', async () => {
    const [kept, grown] = await Promise.all([youngAfterBurst(true), youngAfterBurst(false)]);
    expect(kept).toBeLessThanOrEqual(4);
    expect(grown).toBeGreaterThan(kept * 4);
  }, 60_000);
});
