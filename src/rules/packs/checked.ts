import type { z } from 'zod';
import { packProblems } from './check.js';
import type { TakenNames } from './reserved.js';
import { packSchema } from './schema.js';

/**
 * A pack's data (already parsed from YAML or JSON) checked whole: by the zod schema, then by the
 * checks that need the whole pack. The verifiers use this alone: they read packs from the chain as
 * JSON, and need no YAML parser.
 */

/** A pack that passed every check: its file as zod read it (defaults filled in). */
export type { Pack, PackLoad } from './pack.js';
import type { Pack, PackLoad } from './pack.js';

/** `options[2].choices` from zod's path. */
export const pathText = (path: readonly PropertyKey[]) =>
  path.reduce<string>((s, k) => (typeof k === 'number' ? `${s}[${k}]` : s ? `${s}.${String(k)}` : String(k)), '') || 'the file';

const given = (input: unknown) => (input === undefined ? 'it is missing' : `you gave ${JSON.stringify(input)?.slice(0, 60)}`);

/** One zod issue as the validator's sentence: the rule, and what was given. */
function issueText(issue: z.core.$ZodIssue): string {
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${issue.expected === 'int' ? 'a whole number' : issue.expected} (${given(input)})`;
    case 'too_small':
    case 'too_big': {
      const edge = issue.code === 'too_small' ? 'at least' : 'at most';
      const bound = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum);
      if (issue.origin === 'array') return `${edge} ${bound} ${bound === 1 ? 'entry' : 'entries'} (you gave ${(input as unknown[] | undefined)?.length ?? 0})`;
      if (issue.origin === 'string') return `${edge} ${bound} characters (you gave ${String(input ?? '').length})`;
      return `${edge} ${bound} (${given(input)})`;
    }
    case 'unrecognized_keys': {
      // A comma inside { … } ends a YAML value: the rest of a text reads as a field of its own.
      const text = issue.keys.some((k) => !/^[a-z0-9_]+$/.test(k));
      return `no such field: ${issue.keys.join(', ')}${text ? ' (part of a text? a comma inside { … } ends the value: put the text in quotes)' : ''}`;
    }
    case 'invalid_value':
      return `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')} (${given(input)})`;
    case 'invalid_union': {
      // A discriminated union names its allowed kinds in its own message; show the kind given.
      const kind = (issue as { discriminator?: string }).discriminator;
      return kind ? `${issue.message} (${given((input as Record<string, unknown> | undefined)?.[kind])})` : `not a form this field takes (${given(input)})`;
    }
    default:
      return issue.message;
  }
}

/**
 * `__proto__` as a key or a name: JavaScript gives that one name a meaning of its own (a record
 * keyed by it drops it, silently: `when: { __proto__: x }` would hold always), so a pack may not
 * use it. Walked without recursion: a file nests as deep as it likes.
 */
function protoNames(data: unknown): string[] {
  type Place = { key: PropertyKey; up: Place | undefined } | undefined;
  const pathOf = (p: Place): PropertyKey[] => {
    const keys: PropertyKey[] = [];
    for (let q = p; q; q = q.up) keys.push(q.key);
    return keys.reverse();
  };
  const problems: string[] = [];
  // Each place links to its parent: a path is spelt out only for a problem.
  const stack: [unknown, Place][] = [[data, undefined]];
  while (stack.length) {
    const [value, place] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    for (const [k, v] of Object.entries(value)) {
      const here = { key: Array.isArray(value) ? Number(k) : k, up: place };
      if (k === '__proto__' || (k === 'name' && v === '__proto__')) problems.push(`${pathText(pathOf(here))}: "__proto__" is not a name a pack can use`);
      else stack.push([v, here]);
    }
  }
  return problems.sort();
}

/** Checks a pack's data whole: every problem, each led by its path, or the pack. `commands` are names it must not take. */
export function checkedPack(data: unknown, commands: TakenNames, o: { walk?: boolean } = {}): PackLoad {
  const proto = protoNames(data);
  if (proto.length) return { ok: false, problems: proto };
  const parsed = packSchema.safeParse(data, { reportInput: true });
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((i) => `${pathText(i.path)}: ${issueText(i)}`) };
  const problems = packProblems(parsed.data, commands, o);
  return problems.length ? { ok: false, problems } : { ok: true, pack: parsed.data as Pack };
}
