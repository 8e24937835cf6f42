import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../commands/index.js';
import { ConsoleSession } from '../../src/console/session.js';
import { isGroup, type AnyCommand } from '../../src/core/command.js';
import type { OptionMap } from '../../src/core/options.js';
import { ApplicationCommandOptionType } from 'discord.js';
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

/** A valid value for a declared option, drawn from its Discord definition: a choice, a number in range, a boolean, a short text, an id. */
function validFor(spec: OptionMap[string], name: string): fc.Arbitrary<unknown> {
  const d = spec.toSlash(name) as { type: number; max_value?: number; min_value?: number; max_length?: number; choices?: { value: unknown }[] };
  if (d.choices?.length) return fc.constantFrom(...d.choices.map((c) => c.value));
  if (d.type === ApplicationCommandOptionType.Integer) return fc.integer({ min: d.min_value ?? -1000, max: d.max_value ?? 1000 });
  if (d.type === ApplicationCommandOptionType.Number) return fc.double({ min: d.min_value ?? -1000, max: d.max_value ?? 1000, noNaN: true });
  if (d.type === ApplicationCommandOptionType.Boolean) return fc.boolean();
  if ([ApplicationCommandOptionType.User, ApplicationCommandOptionType.Role, ApplicationCommandOptionType.Channel].includes(d.type))
    return fc.constantFrom('100000000000000001', 'bob', 'c2');
  // Text: words a player would type in it (units, casualties, names), or any short text within its length.
  // Names every object has ("constructor", found in a phase) probe lookups in plain-object tables.
  const typical = fc.constantFrom(
    'German 4-6-7',
    'ge 467',
    'British 8-1',
    '2/5',
    'Guard',
    '1st Foot',
    'resting',
    'The Bulge',
    'constructor',
    '__proto__',
    'toString',
  );
  return fc.oneof(typical, fc.string({ minLength: 1, maxLength: Math.min(d.max_length ?? 30, 30) }));
}

const required = (options: OptionMap) =>
  Object.entries(options)
    .filter(([n, spec]) => (spec.toSlash(n) as { required?: boolean }).required)
    .map(([n]) => n);

describe('property-based fuzzing', () => {
  // Every declared option gets a value, valid for most (so a command
  // that throws on a valid value fails here), random for the rest; required options are always given.
  it('no exception escapes any command, whatever values its real options get', async () => {
    let drawn = 0;
    let valid = 0;
    await fc.assert(
      fc.asyncProperty(
        fc
          .constantFrom(...targets)
          .chain((t) =>
            fc.tuple(
              fc.constant(t),
              fc.record(
                Object.fromEntries(
                  Object.entries(t.options).map(([k, spec]) => [
                    k,
                    fc.oneof(
                      { weight: 4, arbitrary: validFor(spec, k).map((v) => ({ v, valid: true })) },
                      { weight: 1, arbitrary: anyValue.map((v) => ({ v, valid: false })) },
                    ),
                  ]),
                ),
                { requiredKeys: required(t.options) },
              ),
              fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), anyValue, { maxKeys: 1 }),
            ),
          ),
        fc.boolean(),
        async ([t, given, extra], asGm) => {
          const values = Object.entries(given as Record<string, { v: unknown; valid: boolean }>);
          drawn += values.length;
          valid += values.filter(([, x]) => x.valid).length;
          const options: Record<string, unknown> = { ...Object.fromEntries(values.map(([k, x]) => [k, x.v])), ...(values.length % 4 === 0 ? extra : {}) };
          const reply = await app.router.handle({ type: 'command', name: t.name, subcommand: t.subcommand, options, actor: asGm ? gm : alice });
          expect(reply.type === 'error' ? reply.message : '', JSON.stringify({ t: [t.name, t.subcommand], options })).not.toMatch(/Something went wrong/);
        },
      ),
      { numRuns: 600 },
    );
    expect(drawn).toBeGreaterThan(600);
    // Most values were valid ones: the property exercises the commands, not only their refusals.
    expect(valid / drawn).toBeGreaterThan(0.7);
  });
});

/**
 * One invalid value for a declared option, chosen from its Discord definition: past the range of a
 * number, not one of the choices, longer than the length allowed, not a boolean, not a number.
 */
function invalidFor(spec: OptionMap[string], name: string): string | undefined {
  const d = spec.toSlash(name) as { type: number; max_value?: number; min_value?: number; max_length?: number; choices?: unknown[] };
  if (d.choices?.length) return 'not-one-of-the-choices';
  if (d.type === ApplicationCommandOptionType.Integer || d.type === ApplicationCommandOptionType.Number)
    return d.max_value !== undefined ? String(d.max_value + 1) : 'abc';
  if (d.type === ApplicationCommandOptionType.Boolean) return 'maybe';
  if (d.max_length !== undefined) return 'x'.repeat(d.max_length + 1);
  return 'x'.repeat(101);
}

describe('every option of every command refuses an invalid value (table)', () => {
  const cases = targets.flatMap((t) =>
    Object.entries(t.options)
      .map(([name, spec]) => ({ command: `/${t.name}${t.subcommand ? ` ${t.subcommand}` : ''}`, name, value: invalidFor(spec, name)! }))
      .filter((c) => c.value !== undefined),
  );

  it('covers every declared option', () => {
    expect(cases.length).toBe(targets.reduce((n, t) => n + Object.keys(t.options).length, 0));
  });

  // The invalid option is the only one given: the error must be about it, not "x is required".
  it.each(cases)('$command $name:<invalid> → an error naming `$name`, and no row', async ({ command, name, value }) => {
    const session = new ConsoleSession(app.router, { ...gm, channelId: 'table' });
    const before = rows();
    const out = await session.run(`${command} ${name}:"${value}"`);
    expect(out && 'json' in out && out.json.ok).toBe(false);
    const error = String((out as unknown as { json: { error: string } }).json.error);
    expect(error).toContain(`\`${name}\``);
    expect(error).not.toMatch(/is required/);
    expect(rows()).toBe(before);
  });
});

describe('property-based fuzzing of raw lines', () => {
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
