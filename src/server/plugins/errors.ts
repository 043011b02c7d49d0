import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ApiError, FieldErrors } from '../../shared/errors';
import { CONTROL_CHARACTERS_MESSAGE } from '../../shared/text';
import { AppError } from '../lib/app-error';

/**
 * One place turns every error into the public shape `{ code, message, details? }`. Validation errors name
 * their first message (the one a person should read) and list all of them per field; 5xx answers never say
 * what went wrong inside — that goes to the log with the request id.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  // Errors raised before routing (bad URL, over-long parameter) go through Fastify's `frameworkErrors`
  // option and Node's parse errors through `clientErrorHandler`: buildApp passes sendError and
  // clientErrorHandler for those, so they have this shape too.
  app.setErrorHandler(sendError);
}

/**
 * Node answers what it cannot parse (headers over its limit, bytes that are not HTTP, a stalled request)
 * before Fastify sees a request; Fastify's default writes its own `{ error, statusCode }` there.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, body]: [number, string, ApiError] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [
          431,
          'Request Header Fields Too Large',
          { code: 'HEADERS_TOO_LARGE', message: 'The request headers are too large.' },
        ]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [
            408,
            'Request Timeout',
            { code: 'REQUEST_TIMEOUT', message: 'The request took too long to arrive.' },
          ]
        : [400, 'Bad Request', { code: 'VALIDATION_FAILED', message: 'The request could not be read.' }];
  const json = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${Buffer.byteLength(json)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${json}`,
    );
  }
  socket.destroy(error);
}

export function sendError(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    if (error.headers) reply.headers(error.headers);
    return reply
      .status(error.status)
      .send({ code: error.code, message: error.message, details: error.details });
  }

  if (hasZodFastifySchemaValidationErrors(error)) {
    const fieldErrors: FieldErrors = {};
    for (const issue of error.validation) {
      const field = issue.instancePath.slice(1).replace(/\//g, '.') || '_';
      (fieldErrors[field] ??= []).push(issue.message ?? 'This value is not valid.');
    }
    const first = error.validation[0]?.message ?? 'The request is not valid.';
    return reply.status(400).send({ code: 'VALIDATION_FAILED', message: first, details: { fieldErrors } });
  }

  if (isResponseSerializationError(error)) {
    request.log.error({ err: error, issues: error.cause.issues }, 'response did not match its schema');
    return reply.status(500).send({ code: 'INTERNAL_ERROR', message: 'Something went wrong on our side.' });
  }

  const dataException = postgresDataException(error);
  if (dataException) {
    request.log.warn({ err: error, sqlState: dataException }, 'PostgreSQL refused a value from the request');
    return reply
      .status(400)
      .send({ code: 'VALIDATION_FAILED', message: dataExceptionMessage(dataException) });
  }

  const status = error.statusCode ?? 500;
  if (status >= 500) {
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ code: 'INTERNAL_ERROR', message: 'Something went wrong on our side.' });
  }
  if (status === 413) {
    return reply.status(413).send({ code: 'PAYLOAD_TOO_LARGE', message: 'That upload is too large.' });
  }
  if (status === 414 || error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return reply.status(414).send({ code: 'URI_TOO_LONG', message: 'That address is too long.' });
  }
  if (error.code === 'FST_ERR_BAD_URL') {
    return reply
      .status(400)
      .send({ code: 'VALIDATION_FAILED', message: 'That address is not valid (a malformed %-encoding).' });
  }
  // Fastify's own 4xx (malformed JSON, unsupported content type): say what it is in plain words.
  const message =
    error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
      ? 'That content type is not accepted here.'
      : error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
        ? 'The request body is empty.'
        : 'The request could not be read. Check that it is valid JSON.';
  return reply.status(status).send({ code: 'VALIDATION_FAILED', message });
}

/**
 * The SQLSTATE of a PostgreSQL "data exception" (class 22: a NUL or invalid byte in text, a number out of
 * range, a malformed date…) behind this error, or undefined. Drizzle wraps the driver's error, so the
 * SQLSTATE is on `cause`. The schemas should refuse such values first (`safeText`); this is the backstop,
 * so a value PostgreSQL cannot take is the caller's 400, never our 500.
 */
function postgresDataException(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 3; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function dataExceptionMessage(sqlState: string): string {
  switch (sqlState) {
    case '22021': // character_not_in_repertoire: "invalid byte sequence", e.g. a NUL in text
    case '22P05': // untranslatable_character
      return CONTROL_CHARACTERS_MESSAGE;
    case '22001': // string_data_right_truncation
      return 'A value in the request is too long.';
    case '22003': // numeric_value_out_of_range
      return 'A number in the request is out of range.';
    default:
      return 'A value in the request is not valid.';
  }
}
