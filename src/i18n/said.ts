import type { MessageKey } from './messages/en.js';

/**
 * Something the bot says, by identifier and parameters, not yet in any language: a refusal is
 * thrown as one, and rendered in the reader's language only when the reply is made (speak.ts).
 * The rules and the commands build these and know no language; the catalogs in ./messages give
 * each identifier its sentence in English, German and French (ICU MessageFormat).
 */
export type Said = { readonly key: MessageKey; readonly values?: Readonly<Record<string, Value>> };

/**
 * A parameter: text shown as it is (a name, a quoted value, already escaped), a number (written
 * in the reader's language), another sentence (rendered in the same language), an option or a
 * command by its English name (shown as the reader's client shows it), or a list of these.
 */
export type Value = string | number | Said | OptionName | CommandName | ListOf;
export type OptionName = { readonly option: string };
export type CommandName = { readonly command: string };
export type ListOf = { readonly list: readonly Value[]; readonly joiner?: 'and' | 'or' | 'comma' | 'lines' | 'chain' | 'space' | 'semicolon' | 'slash' };

export const said = (key: MessageKey, values?: Record<string, Value>): Said => (values ? { key, values } : { key });
/** An option by its English name: rendered as the reader's client names it, between backticks. */
export const option = (name: string): OptionName => ({ option: name });
/** A command by its English words (`game start`): rendered as the reader's client names it, with its slash. */
export const command = (words: string): CommandName => ({ command: words });
/** Values joined as the reader's language joins them ("a, b and c"; `comma`: "a, b, c"; `lines`: one a line; `chain`: "a, and b, and c"). */
export const list = (items: readonly Value[], joiner: ListOf['joiner'] = 'and'): ListOf => ({ list: items, joiner });

export const isSaid = (v: unknown): v is Said => typeof v === 'object' && v !== null && 'key' in v && typeof (v as Said).key === 'string';
