import type { MessageKey } from '../i18n/messages/en.js';
import { isSaid, said, type Said, type Value } from '../i18n/said.js';
import { sayIn } from '../i18n/speak.js';

/** Refusals the metrics count apart from the rest (a user's own mistake is plain `refused`). */
export type RefusalCode = 'rate_limited' | 'duplicate';

/**
 * A refusal the user caused and can fix (a bad value, a unit that is not theirs, a button already
 * used): the router turns it into an ephemeral error reply naming the problem, in the player's
 * language; nothing is recorded. Anything else thrown is a bug and is logged under a reference.
 * This is the one error convention of commands and the core: they throw it, as an identifier
 * with its parameters (`said`), never as a sentence. The rules stay free of it: a rule that can
 * refuse its input returns what it would say, and its caller refuses with it.
 */
export class UserError extends Error {
  constructor(
    readonly said: Said,
    /** Set for the refusals the metrics count on their own. */
    readonly code?: RefusalCode,
  ) {
    // English for logs and stack traces; the player reads it in their own language.
    super(sayIn('en', said));
  }
}

/** Refuses the request (throws a UserError): by identifier and parameters, or with what was said already. */
export function refuse(what: MessageKey | Said, values?: Record<string, Value>, code?: RefusalCode): never {
  throw new UserError(isSaid(what) ? what : said(what, values), code);
}
