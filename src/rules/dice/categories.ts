/**
 * What a hand-rolled DR or dr is for, as VASL's dice bot files them: the /dr
 * categories, kept apart from the ASL notes so the history and the dice report can filter on them.
 */
export const DR_CATEGORIES = ['IFT', 'TH', 'TK', 'MC', 'TC', 'Rally', 'CC', 'SA', 'RS', 'other'] as const;
export type DrCategory = (typeof DR_CATEGORIES)[number];
