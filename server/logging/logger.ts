import { pino, type DestinationStream, type Logger as PinoLogger } from 'pino';
import PinoPretty from 'pino-pretty';

/** The one logger type of the server: the app, stack, watcher, delivery and login provider. */
export type Logger = PinoLogger;

/** Values of `LOG_FORMAT`: `auto` is pretty in a terminal and JSON lines otherwise. */
export const LOG_FORMATS = ['auto', 'pretty', 'json'] as const;

/** A `LOG_FORMAT` setting. */
export type LogFormatSetting = (typeof LOG_FORMATS)[number];

/** Where log lines go; `process.stdout` unless a test collects them. */
export type LogDestination = { write: (chunk: string) => unknown };

/** Settings of {@link createLogger}. */
export type LoggerOptions = {
  level: string;
  format?: LogFormatSetting;
  destination?: LogDestination;
  /** Whether the destination is a terminal; decides `auto` (default: stdout is a TTY). */
  isTerminal?: boolean;
  /** Colours in pretty output (default: the terminal supports them and NO_COLOR is unset). */
  isColorized?: boolean;
  /**
   * While this says true, warnings are dropped: Ctrl-C in a terminal reaches the embedded
   * PostgreSQL too, so every connection reports its loss while `npm start` stops in order.
   */
  isStopping?: () => boolean;
};

/** The format `setting` means for a destination that is or is not a terminal. */
export function resolveLogFormat(
  setting: LogFormatSetting,
  isTerminal: boolean,
): 'pretty' | 'json' {
  if (setting !== 'auto') return setting;
  return isTerminal ? 'pretty' : 'json';
}

/**
 * Creates the server's logger: short coloured lines (`[12:04:31] INFO: watch: ...`) for a
 * person at a terminal, JSON lines for anything that collects them. Pretty printing runs
 * in this thread, not in a pino transport worker, so log lines and the plain start banner
 * written to the same stdout keep their order.
 */
export function createLogger(options: LoggerOptions): Logger {
  const destination = options.destination ?? process.stdout;
  const isTerminal = options.isTerminal ?? process.stdout.isTTY === true;
  const format = resolveLogFormat(options.format ?? 'auto', isTerminal);
  const stream: DestinationStream =
    format === 'json'
      ? { write: (chunk) => void destination.write(chunk) }
      : createPrettyStream(
          destination,
          options.isColorized ?? (isTerminal && PinoPretty.isColorSupported),
        );
  const isStopping = options.isStopping ?? (() => false);
  return pino(
    {
      level: options.level,
      hooks: {
        logMethod(args, method, level) {
          if (level === pino.levels.values.warn && isStopping()) return;
          method.apply(this, args);
        },
      },
    },
    stream,
  );
}

/** Formats pino's JSON lines as one readable line each before writing them. */
function createPrettyStream(destination: LogDestination, isColorized: boolean): DestinationStream {
  const prettify = PinoPretty.prettyFactory({
    colorize: isColorized,
    translateTime: 'SYS:HH:MM:ss',
    // Request ids, pids and structured fields are for machines; errors still print in full.
    hideObject: true,
    ignore: 'pid,hostname',
    messageFormat: '{if component}{component}: {end}{msg}',
  });
  return { write: (chunk) => void destination.write(prettify(chunk)) };
}
