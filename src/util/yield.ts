/**
 * Gives the event loop back (setImmediate): long work in chunks calls it between chunks so that
 * other servers' interactions, timers and the responder's defer run meanwhile.
 */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
