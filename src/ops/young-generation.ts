import { setFlagsFromString } from 'node:v8';

/**
 * Imported second by the production entry, before anything allocates much: V8 (Node 24) lets its
 * young generation grow to 128 MiB after a few allocation bursts (loading the message catalogs,
 * the first GUILD_CREATEs) and keeps it reserved while the bot idles, though a roll's garbage dies
 * within a few hundred kilobytes. Growth stopped, the young generation stays at its first 2 MiB:
 * the ready bot's resident memory fell from about 211 to 171 MiB, and to 122 once the flag was set
 * before discord.js loads (main.ts); a roll's time did not move (docs/development.md).
 * `--max-semi-space-size` would be the plain knob, but V8 reads it only when the heap is set up,
 * before any JavaScript runs; the growth factor is read at every scavenge.
 */
setFlagsFromString('--semi-space-growth-factor=1');
