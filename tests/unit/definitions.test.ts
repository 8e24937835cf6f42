import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../commands/index.js';
import { commandDefinitions } from '../../src/discord/definitions.js';

const NAME = /^[-_a-z0-9]{1,32}$/;

describe('slash-command definitions Discord will accept', () => {
  const defs = commandDefinitions(COMMANDS);
  const walk = (options: any[] | undefined, where: string): void => {
    expect(options?.length ?? 0, `${where}: at most 25 options`).toBeLessThanOrEqual(25);
    let seenOptional = false;
    for (const o of options ?? []) {
      expect(o.name, where).toMatch(NAME);
      expect(o.description.length, `${where} ${o.name}`).toBeGreaterThan(0);
      expect(o.description.length, `${where} ${o.name}`).toBeLessThanOrEqual(100);
      if (o.type === 1) walk(o.options, `${where} ${o.name}`);
      else {
        if (!o.required) seenOptional = true;
        else expect(seenOptional, `${where}: required ${o.name} after an optional option`).toBe(false);
        expect(o.choices?.length ?? 0).toBeLessThanOrEqual(25);
      }
    }
  };
  it.each(defs.map((d) => [d.name, d]))('/%s', (_n, d: any) => {
    expect(d.name).toMatch(NAME);
    expect(d.description.length).toBeGreaterThan(0);
    expect(d.description.length).toBeLessThanOrEqual(100);
    expect(d.contexts).toEqual([0]);
    walk(d.options, `/${d.name}`);
  });

  // Discord's limit: a command's names, descriptions and choice names and values, all together,
  // at most 4000 characters; a registration with one command over it is refused whole.
  const size = (o: any): number =>
    (o.name?.length ?? 0) +
    (o.description?.length ?? 0) +
    (o.choices ?? []).reduce((a: number, c: any) => a + c.name.length + String(c.value).length, 0) +
    (o.options ?? []).reduce((a: number, x: any) => a + size(x), 0);

  it('names are unique, at most 100 commands, each within 4000 characters', () => {
    expect(new Set(defs.map((d) => d.name)).size).toBe(defs.length);
    expect(defs.length).toBeLessThanOrEqual(100);
    for (const d of defs) expect(size(d), `/${d.name}`).toBeLessThanOrEqual(4000);
  });
});
