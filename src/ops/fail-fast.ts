import { randomBytes } from 'node:crypto';
import type { Logger } from '../log.js';

export type FailFastOptions = {
  log: Logger;
  /** Closes what must be closed (the database) before the process ends. */
  close: () => Promise<void>;
  /** How long `close` may take before the process exits anyway. */
  graceMs?: number;
  /** A failure that is not one: the reader of our output went away (EPIPE), which the caller notes. */
  ignore?: (err: unknown) => boolean;
  exit?: (code: number) => void;
};

/**
 * An uncaught exception or an unhandled rejection leaves the process in a state nobody knows: it is
 * logged once, under a reference, the database is closed, and the process exits with 1 for its
 * supervisor (systemd's Restart=, Docker's or compose's restart policy) to start a clean one.
 */
export function failFast(o: FailFastOptions): void {
  const exit = o.exit ?? ((code: number) => process.exit(code));
  let failing = false;
  const fail = (what: string) => (err: unknown) => {
    if (o.ignore?.(err)) return;
    if (failing) return;
    failing = true;
    const ref = randomBytes(4).toString('hex');
    o.log.error(`${what}: exiting for the supervisor to restart`, { ref, err });
    setTimeout(() => exit(1), o.graceMs ?? 5_000).unref();
    o.close()
      .catch(() => undefined)
      .finally(() => exit(1));
  };
  process.on('uncaughtException', fail('uncaught exception'));
  process.on('unhandledRejection', fail('unhandled rejection'));
}
