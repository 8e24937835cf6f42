/** A total, with a real minus sign when negative. */
export const number = (n: number) => (n < 0 ? `−${-n}` : String(n));

/** A signed value with a real minus sign, as players write DRMs. */
export const signed = (n: number) => (n > 0 ? `+${n}` : number(n));
