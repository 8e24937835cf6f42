import type { LogLevel } from './config.js';

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export type Logger = {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
};

export type LoggerOptions = {
  level: LogLevel;
  /** Values that must never reach a log line (the bot token); replaced wherever they appear. */
  secrets?: (string | undefined)[];
  write?: (line: string) => void;
};

/**
 * One JSON line per event on stderr (stdout belongs to the console's --json output). Every line is
 * scrubbed of the configured secrets as a last line of defence: an error from a library may quote
 * a header or URL we never meant to log.
 */
export function createLogger({ level, secrets = [], write }: LoggerOptions): Logger {
  const min = RANK[level];
  const hidden = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 8);
  const out = write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const emit = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (RANK[lvl] < min) return;
    let line = JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...serialise(fields) });
    for (const s of hidden) line = line.split(s).join('[redacted]');
    out(line);
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}

function serialise(fields: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!fields) return {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    out[k] = v instanceof Error ? { name: v.name, message: v.message, stack: v.stack } : v;
  }
  return out;
}

export const silentLogger: Logger = createLogger({ level: 'silent' });
