import type { FastifyBaseLogger } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];
type LogArguments = [unknown, ...unknown[]];
type LogMethodName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** pino's levels (the only ones this app uses); a line is written at its level or above. */
const LEVEL_VALUES: Record<string, number | undefined> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Infinity,
};

/**
 * A request's logger that becomes a real child of its parent (with the request id) only when
 * something is logged. Fastify makes one per request and pino serialises a child's bindings
 * as it is made, while at the shipped level almost no request logs anything. Methods live on
 * the prototype, so making one costs a single small object.
 */
export class LazyChildLogger implements FastifyBaseLogger {
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildOptions;
  #child: FastifyBaseLogger | undefined;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options?: ChildOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  get level(): string {
    return this.#child?.level ?? this.#options?.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.#resolve().level = level;
  }

  fatal(...args: LogArguments): void {
    this.#write('fatal', args);
  }

  error(...args: LogArguments): void {
    this.#write('error', args);
  }

  warn(...args: LogArguments): void {
    this.#write('warn', args);
  }

  info(...args: LogArguments): void {
    this.#write('info', args);
  }

  debug(...args: LogArguments): void {
    this.#write('debug', args);
  }

  trace(...args: LogArguments): void {
    this.#write('trace', args);
  }

  silent(...args: LogArguments): void {
    this.#write('silent', args);
  }

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.#resolve().child(bindings, options);
  }

  #write(method: LogMethodName, args: LogArguments): void {
    // A line below the level is dropped without making the child (Fastify's trace line of
    // every incoming request, at the shipped level); an unknown level defers to pino.
    const threshold = LEVEL_VALUES[this.level];
    if (
      method === 'silent' ||
      (threshold !== undefined && (LEVEL_VALUES[method] ?? 0) < threshold)
    ) {
      return;
    }
    const child = this.#resolve();
    Reflect.apply(child[method], child, args);
  }

  #resolve(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }
}

/** Fastify's `childLoggerFactory`: request loggers made only when a request logs. */
export function createLazyChildLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildOptions,
): FastifyBaseLogger {
  return new LazyChildLogger(logger, bindings, options);
}
