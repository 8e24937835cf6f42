/** The largest strength a Hearts of Tin unit or brigade may be given: a bound on input, not a rule. */
export const STRENGTH_MAX = 100_000;
