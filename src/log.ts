import pino from 'pino';
import type { LogLevel } from './config.js';

export type Fields = Record<string, unknown>;

export type Logger = {
  debug(msg: string, fields?: Fields): void;
  info(msg: string, fields?: Fields): void;
  warn(msg: string, fields?: Fields): void;
  error(msg: string, fields?: Fields): void;
};

export type LoggerOptions = {
  level: LogLevel;
  /** Values that must never reach a log line (the bot token, the database password); replaced wherever they appear. */
  secrets?: (string | undefined)[];
  write?: (line: string) => void;
};

/** Fields that name a secret by their key, wherever they sit (pino's redact, before serialising). */
const REDACT = ['token', 'password', 'authorization', '*.token', '*.password', '*.authorization', 'headers.authorization', '*.headers.authorization'];

/**
 * pino, one JSON line per event on stderr (stdout belongs to the console's --json output). Its
 * `redact` blanks fields named like secrets; every finished line is then scrubbed of the configured
 * secret values as a last line of defence: an error from a library may quote a header or URL.
 */
export function createLogger({ level, secrets = [], write }: LoggerOptions): Logger {
  const hidden = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 8);
  const out = write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const destination = {
    write(chunk: string) {
      let line = chunk.endsWith('\n') ? chunk.slice(0, -1) : chunk;
      for (const s of hidden) line = line.split(s).join('[redacted]');
      out(line);
    },
  };
  const p = pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT, censor: '[redacted]' },
    },
    destination,
  );
  // The level is checked first: a debug line on the hot path costs nothing while debug is off.
  const at = (lvl: Exclude<LogLevel, 'silent'>) => (msg: string, fields?: Fields) => {
    if (p.isLevelEnabled(lvl)) p[lvl](serialise(fields), msg);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** An Error under any key goes through pino's own error serialiser (which pino applies to `err` alone). */
function serialise(fields: Fields | undefined): Fields {
  if (!fields) return {};
  const out: Fields = {};
  for (const [k, v] of Object.entries(fields)) out[k] = v instanceof Error ? pino.stdSerializers.err(v) : v;
  return out;
}

export const silentLogger: Logger = createLogger({ level: 'silent' });
