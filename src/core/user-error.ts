/**
 * A refusal the user caused and can fix (a bad value, a unit that is not theirs): the router turns
 * it into an ephemeral error reply naming the problem; nothing is recorded. Anything else thrown is
 * a bug and is logged under a reference.
 */
export class UserError extends Error {}
