import { readNamedValues, tokenize } from '../core/option-text.js';
import { sayIn } from '../i18n/speak.js';
/** A console line, read the way Discord's command box reads it. */
export type ConsoleLine =
  | { type: 'command'; name: string; subcommand?: string; options: Record<string, string> }
  | { type: 'complete'; name: string; subcommand?: string; option: string; value: string; options: Record<string, string> }
  | { type: 'press'; customId: string | undefined }
  | { type: 'as'; user: string; gm: boolean }
  | { type: 'in'; channel: string; guild?: string }
  | { type: 'help' }
  | { type: 'quit' }
  | { type: 'blank' };

export class LineError extends Error {
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
  }
}

/** `name:value …` as Discord's command box reads it, refused with the console's own error. */
function readOptions(name: string, tokens: string[]): Record<string, string> {
  const read = readNamedValues(tokens);
  if ('error' in read)
    throw new LineError(read.stray !== undefined ? `expected option:value after /${name}, got ${JSON.stringify(read.stray)}` : sayIn('en', read.error), name);
  return read.values;
}

function tokenizeOrThrow(line: string): string[] {
  const t = tokenize(line);
  if ('error' in t) throw new LineError(sayIn('en', t.error));
  return t.tokens;
}

function readCommand(tokens: string[]): { name: string; subcommand?: string; options: Record<string, string> } {
  const [head, ...rest] = tokens;
  const m = /^\/([a-z0-9_-]{1,32})$/.exec(head ?? '');
  if (!m) throw new LineError(`a command starts with / and a name, like /rally (got ${JSON.stringify(head ?? '')})`);
  // A bare word right after the name is a subcommand: /game start system:asl
  const sub = rest[0] !== undefined && /^[a-z][a-z0-9_-]{0,31}$/.test(rest[0]) ? rest.shift() : undefined;
  return { name: m[1]!, ...(sub ? { subcommand: sub } : {}), options: readOptions(m[1]!, rest) };
}

export function parseLine(line: string): ConsoleLine {
  const trimmed = line.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return { type: 'blank' };
  const tokens = tokenizeOrThrow(trimmed);
  const [first, ...rest] = tokens;
  switch (first) {
    case 'help':
    case '?':
      return { type: 'help' };
    case 'quit':
    case 'exit':
      return { type: 'quit' };
    case 'press':
      if (rest.length > 1) throw new LineError('press takes one custom_id: press v1:reroll:<roll id>');
      return { type: 'press', customId: rest[0] };
    case 'as': {
      const [user, flag, ...extra] = rest;
      if (!user || extra.length || (flag !== undefined && flag !== 'gm')) {
        throw new LineError('as takes a user and optionally gm: as alice, or as bob gm');
      }
      return { type: 'as', user, gm: flag === 'gm' };
    }
    case 'in': {
      // in <channel> [guild]: act in another channel (and server) from here on.
      const [channel, guild, ...extra] = rest;
      if (!channel || extra.length) throw new LineError('in takes a channel and optionally a server: in war-room, or in war-room other-server');
      return { type: 'in', channel, ...(guild ? { guild } : {}) };
    }
    case 'complete': {
      // complete /rally unit:"1st"  — the last option is the one being typed.
      const { name, subcommand, options } = readCommand(rest);
      const keys = Object.keys(options);
      const option = keys[keys.length - 1];
      if (!option) throw new LineError('complete needs the option being typed: complete /rally unit:1st', name);
      const { [option]: value, ...others } = options;
      return { type: 'complete', name, ...(subcommand ? { subcommand } : {}), option, value: value ?? '', options: others };
    }
    default:
      return { type: 'command', ...readCommand(tokens) };
  }
}
