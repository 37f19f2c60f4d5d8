import path from 'node:path';
import type { MainLogger } from 'electron-log';
import { redactLogMessage } from './redact-secrets.ts';

// The app's persistent log, through electron-log: one file in the folder macOS keeps logs in
// (~/Library/Logs/Shelfwatch/main.log, what app.getPath('logs') answers), rotated at 1 MB to
// main.old.log so it never grows past about 2 MB. Support asks for it ("Show Log" in the Help
// menu reveals it in Finder); every message is redacted first (redact-secrets.ts).

/** Largest log file before it is moved to main.old.log and started again. */
export const LOG_MAX_BYTES = 1024 * 1024;
/** The log file's name inside the logs folder. */
export const LOG_FILE_NAME = 'main.log';

/** The parts of electron-log's main logger the app configures and writes through. */
export type LoggerLike = Pick<MainLogger, 'hooks' | 'error' | 'warn' | 'info' | 'debug'> & {
  transports: Pick<MainLogger['transports'], 'file' | 'console'>;
};

/** Where the app writes its log, and how. */
export type AppLog = {
  /** A failure, with the error that says why (its stack goes to the file). */
  error: (message: string, error?: unknown) => void;
  /** Something support would want to know happened (a start, a wake, an update). */
  info: (message: string) => void;
  /** The file "Show Log" reveals. */
  filePath: string;
  /** What electron-updater logs through (its own messages, redacted like the app's). */
  updaterLogger: Pick<MainLogger, 'info' | 'warn' | 'error' | 'debug'>;
};

/** Points electron-log at the logs folder, rotates at LOG_MAX_BYTES and redacts every message. */
export function createAppLog(
  logger: LoggerLike,
  options: { logsDir: string; isDevelopment: boolean },
): AppLog {
  const filePath = path.join(options.logsDir, LOG_FILE_NAME);
  const { file, console: consoleTransport } = logger.transports;
  file.resolvePathFn = () => filePath;
  file.maxSize = LOG_MAX_BYTES;
  file.level = options.isDevelopment ? 'debug' : 'info';
  // A release's stdout is read by no one but a developer starting it from a terminal.
  consoleTransport.level = options.isDevelopment ? 'debug' : 'warn';
  logger.hooks.push((message) => redactLogMessage(message));
  return {
    error: (message, error) => {
      if (error === undefined) logger.error(message);
      else logger.error(message, error);
    },
    info: (message) => logger.info(message),
    filePath,
    updaterLogger: logger,
  };
}
