/** Refusals the metrics count apart from the rest (a user's own mistake is plain `refused`). */
export type RefusalCode = 'rate_limited' | 'duplicate';

/**
 * A refusal the user caused and can fix (a bad value, a unit that is not theirs, a button already
 * used): the router turns it into an ephemeral error reply naming the problem; nothing is recorded.
 * Anything else thrown is a bug and is logged under a reference. This is the one error convention
 * of commands and the core: they throw it. The rules stay free of it: a rule that can refuse its
 * input (`parseUnit`, a command's `check`) returns the sentence, and its caller refuses with it.
 */
export class UserError extends Error {
  constructor(
    message: string,
    /** Set for the refusals the metrics count on their own. */
    readonly code?: RefusalCode,
  ) {
    super(message);
  }
}

/** Refuses the request with this sentence (throws a UserError). */
export function refuse(message: string, code?: RefusalCode): never {
  throw new UserError(message, code);
}
