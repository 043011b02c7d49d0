import type { FastifyBaseLogger } from 'fastify';
import type { Logger } from 'pino';
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger';
import { redactLogObject } from './log-redaction';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogFn = (...args: unknown[]) => void;

/**
 * A request's logger that becomes a real pino child only when something is logged at an enabled level.
 * Making the child (its bindings pass through the redaction paths) on every request was a few per cent of a
 * cached catalogue request's time (issue 14), and most requests log nothing above the configured level.
 * Its bindings are censored as a line's object is (pino gives a child's bindings no formatter).
 */
class LazyChildLogger {
  private real: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly childBindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): Logger {
    this.real ??= this.parent.child(redactLogObject(this.childBindings), this.options as object);
    return this.real;
  }

  get level(): string {
    return this.real?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  isLevelEnabled(level: string): boolean {
    return (this.real ?? this.parent).isLevelEnabled(level);
  }

  bindings(): Bindings {
    return this.logger.bindings();
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(redactLogObject(bindings), options as object);
  }

  private log(level: Level, args: unknown[]): void {
    if (!this.isLevelEnabled(level)) return;
    (this.logger[level] as LogFn)(...args);
  }

  fatal(...args: unknown[]): void {
    this.log('fatal', args);
  }
  error(...args: unknown[]): void {
    this.log('error', args);
  }
  warn(...args: unknown[]): void {
    this.log('warn', args);
  }
  info(...args: unknown[]): void {
    this.log('info', args);
  }
  debug(...args: unknown[]): void {
    this.log('debug', args);
  }
  trace(...args: unknown[]): void {
    this.log('trace', args);
  }
  silent(): void {}
}

/** Fastify's `childLoggerFactory`: the request's logger, made real on first use. */
export function lazyChildLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  // With `logger: false` Fastify's logger is a no-op that is not pino: its child costs nothing.
  if (typeof (logger as Partial<Logger>).isLevelEnabled !== 'function')
    return logger.child(bindings, options);
  // Otherwise it is pino (the app passes pino options), whatever Fastify's narrower type says.
  return new LazyChildLogger(logger as unknown as Logger, bindings, options) as unknown as FastifyBaseLogger;
}
