import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * What building each language's catalog allocates (V8's sampling heap profiler, garbage
 * included), in a fresh node: the bytes allocated under each catalog module's own evaluation, and,
 * as a control that the probe sees garbage collected before it stops, under a function that
 * allocates 12 MiB of short-lived arrays. (Building a catalog the old way, its keys written in a
 * literal with most of them spread into it, left 14 MiB on Node 22 and 24; Node 26's V8 no
 * longer does, so it cannot serve as the control on every supported major.)
 */
async function allocations(): Promise<Record<string, number>> {
  const code = `
    const inspector = await import('node:inspector/promises');
    const session = new inspector.Session();
    session.connect();
    // Loaded first, so English's own allocations are its catalog's, not its results' module's.
    await import('./src/i18n/messages/en-results.ts');
    await session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    await import('./src/i18n/messages/en.ts');
    await import('./src/i18n/messages/de.ts');
    await import('./src/i18n/messages/fr.ts');
    // Each array read once, so the allocation is used.
    let kept = 0;
    function garbage() {
      for (let i = 0; i < 1536; i++) kept += new Array(1024).fill({ i })[1023].i + 1;
    }
    garbage();
    const { profile } = await session.post('HeapProfiler.stopSampling');
    const by = { en: 0, de: 0, fr: 0, control: 0 };
    const total = (n) => n.selfSize + n.children.reduce((s, c) => s + total(c), 0);
    const walk = (n) => {
      const lang = /messages\\/(en|de|fr)\\.ts$/.exec(n.callFrame.url)?.[1];
      if (lang && n.callFrame.functionName === '') by[lang] += total(n);
      else if (n.callFrame.functionName === 'garbage') by.control += total(n);
      else n.children.forEach(walk);
    };
    walk(profile.head);
    console.log(JSON.stringify(by));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8' });
  return JSON.parse(stdout.trim()) as Record<string, number>;
}

describe('the message catalogs at start-up', () => {
  it('are built without megabytes of garbage, which a thousand keys spread into one literal leave (on Node 22 and 24)', async () => {
    const { control, ...langs } = await allocations();
    expect(control).toBeGreaterThan(4 * 2 ** 20);
    // German and French fill in their glossaries (about 1.5 MiB); the old way cost 14 MiB each.
    for (const [lang, bytes] of Object.entries(langs)) expect(bytes, lang).toBeLessThan(3 * 2 ** 20);
  }, 60_000);
});

describe("a catalog's parts", () => {
  it('give each key once: one in two parts is refused, naming it, rather than one text silently taking the other’s place', async () => {
    const { catalogOf } = await import('../../src/i18n/messages/catalog.js');
    expect(catalogOf({ a: 'A' }, { b: 'B' }, { c: 'C' })).toEqual({ a: 'A', b: 'B', c: 'C' });
    expect(() => catalogOf({ a: 'A', b: 'B' }, { c: 'C' }, { b: 'other B' })).toThrow('the message b is in two parts of a catalog');
  });
});
