/** RETENTION_DAYS when unset: the days a server's data is kept after the bot leaves it. */
export const DEFAULT_RETENTION_DAYS = 30;
/** The most days /config retention takes. */
export const MAX_RETENTION_DAYS = 365;
