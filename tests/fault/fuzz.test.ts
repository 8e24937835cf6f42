import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../commands/index.js';
import { ConsoleSession } from '../../src/console/session.js';
import { isGroup, type AnyCommand } from '../../src/core/command.js';
import type { OptionMap } from '../../src/core/options.js';
import { cryptoRoller } from '../../src/dice/roller.js';
import { alice, gm, testApp, type TestApp } from '../helpers/app.js';

/** Every command, and every subcommand, with its options. */
const targets: { name: string; subcommand?: string; options: OptionMap }[] = COMMANDS.flatMap((c: AnyCommand) =>
  isGroup(c)
    ? Object.entries(c.subcommands).map(([s, sub]) => ({ name: c.name, subcommand: s, options: sub.options as OptionMap }))
    : [{ name: c.name, options: c.options as OptionMap }],
);

const anyValue = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.double({ noNaN: false }),
  fc.boolean(),
  fc.constantFrom('', ' ', '0', '-1', '2/5', '3/2', 'German 4-6-7', 'ge 467', 'crew', '1e9', 'NaN', '=1+1', '@x', 'null'),
);

let app: TestApp;
beforeAll(() => {
  // Real dice: the fuzzer must not run out of pinned ones.
  app = testApp(undefined, { roller: cryptoRoller });
});
afterAll(() => app.ledger.close());

const rows = () => (app.ledger.db.prepare('SELECT COUNT(*) AS n FROM rolls').get() as { n: number }).n;

describe('property-based fuzzing', () => {
  it('no exception escapes any command, whatever its options', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...targets),
        fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), anyValue, { maxKeys: 3 }),
        fc.boolean(),
        async (t, extra, asGm) => {
          const known = Object.fromEntries(Object.keys(t.options).map((k) => [k, undefined]));
          const options = { ...known, ...extra };
          for (const k of Object.keys(options)) if (options[k] === undefined) delete options[k];
          const reply = await app.router.handle({ type: 'command', name: t.name, subcommand: t.subcommand, options, actor: asGm ? gm : alice });
          expect(reply.type === 'error' ? reply.message : '').not.toMatch(/Something went wrong/);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('an invalid value of any option gets an error naming that option, and writes no ledger row', async () => {
    // Wrong types and out-of-range numbers for each declared option.
    let refused = 0;
    const invalid = fc.oneof(
      fc.constant({}),
      fc.constant([1]),
      fc.integer({ min: 1_000_001, max: 2_000_000_000 }),
      fc.constant(-999_999),
      fc.string({ minLength: 101, maxLength: 300 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...targets.filter((t) => Object.keys(t.options).length)), fc.nat(), invalid, async (t, pick, value) => {
        const names = Object.keys(t.options);
        const name = names[pick % names.length]!;
        const before = rows();
        const reply = await app.router.handle({ type: 'command', name: t.name, subcommand: t.subcommand, options: { [name]: value }, actor: gm });
        if (reply.type !== 'error') return; // e.g. a long string some text option accepts is not invalid
        refused++;
        expect(reply.message).not.toMatch(/Something went wrong/);
        expect(reply.message).toContain('`');
        expect(rows()).toBe(before);
      }),
      { numRuns: 400 },
    );
    // The property held over real refusals, not only over inputs that happened to be accepted.
    expect(refused).toBeGreaterThan(200);
  });

  it('raw console lines never throw, print one JSON object each, and a refused line writes nothing', async () => {
    const session = new ConsoleSession(app.router, { ...alice, channelId: 'fuzz' });
    const line = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc
        .tuple(
          fc.constantFrom(...targets.map((t) => `/${t.name}${t.subcommand ? ` ${t.subcommand}` : ''}`)),
          fc.array(fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 12 })), { maxLength: 4 }),
        )
        .map(([head, pairs]) => `${head} ${pairs.map(([k, v]) => `${k}:"${v.replace(/"/g, '')}"`).join(' ')}`),
    );
    await fc.assert(
      fc.asyncProperty(line, async (l) => {
        const before = rows();
        const out = await session.run(l);
        if (out === null || 'quit' in out) return;
        expect(typeof out.json.ok).toBe('boolean');
        expect(() => JSON.stringify(out.json)).not.toThrow();
        if (!out.json.ok) {
          expect(String(out.json.error)).not.toMatch(/Something went wrong/);
          expect(rows()).toBe(before);
        }
      }),
      { numRuns: 500 },
    );
  });
});
