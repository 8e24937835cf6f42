import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../commands/index.js';
import { isGroup, type Action } from '../../src/core/command.js';
import { DECLARED_OPTIONS } from '../../src/verify/declared-options.js';

// The verifiers tell an option a player left out (its command's declared default) from one added
// to a row by the table in src/verify/declared-options.ts, data the page's core can hold without
// the bot's Discord code. It must say what the commands declare, or an honest row would fail.

/** Each command's actions by the name a request carries: `command`, or `command subcommand`. */
const actions = new Map<string, Action<any>>(
  COMMANDS.flatMap((c): [string, Action<any>][] => (isGroup(c) ? Object.entries(c.subcommands).map(([s, a]) => [`${c.name} ${s}`, a]) : [[c.name, c]])),
);

/** What a command declares: each option's default (zod's value for an option left out), or null. */
function declared(a: Action<any>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(a.options as Record<string, { schema: { safeParse(v: unknown): { success: boolean; data?: unknown } } }>).map(([name, spec]) => {
      const left = spec.schema.safeParse(undefined);
      return [name, left.success && left.data !== undefined ? left.data : null];
    }),
  );
}

describe('the options commands declare, as the verification core knows them', () => {
  it('are what each command declares, option by option, with its default', () => {
    for (const [name, options] of Object.entries(DECLARED_OPTIONS)) {
      const action = actions.get(name);
      expect(action, `/${name} is not a command`).toBeDefined();
      expect(options, `/${name}: copy its options here as the commands declare them`).toEqual(declared(action!));
    }
  });

  it('cover every command that rolls or rules under a system, and the GM’s marks and /roll dice', () => {
    const ruled = COMMANDS.filter((c) => c.system).flatMap((c) => (isGroup(c) ? Object.keys(c.subcommands).map((s) => `${c.name} ${s}`) : [c.name]));
    for (const name of [...ruled, 'roll dice', 'void', 'annotate']) expect(Object.keys(DECLARED_OPTIONS), name).toContain(name);
  });
});
