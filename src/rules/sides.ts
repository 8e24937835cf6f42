/** The two sides of a WW2 game, as players join them (/game join) and the dice report groups them. */
export const SIDES = ['axis', 'allied'] as const;
export type Side = (typeof SIDES)[number];
export const SIDE_NAMES: Record<Side, string> = { axis: 'Axis', allied: 'Allied' };
