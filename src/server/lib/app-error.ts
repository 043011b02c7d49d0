import { errorStatus, type ErrorCode } from '../../shared/errors';

/** The one error type services throw; the error handler turns it into `{ code, message, details? }`. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: Record<string, unknown>;
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = errorStatus(code);
    this.details = options.details;
    this.headers = options.headers;
  }
}

export const notFound = (what = 'That resource') => new AppError('NOT_FOUND', `${what} was not found.`);
export const forbidden = (message = 'You do not have access to that.') => new AppError('FORBIDDEN', message);
