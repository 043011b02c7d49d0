import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { FieldErrors } from '../../shared/errors';
import { AppError } from '../lib/app-error';

/**
 * One place turns every error into the public shape `{ code, message, details? }`. Validation errors name
 * their first message (the one a person should read) and list all of them per field; 5xx answers never say
 * what went wrong inside — that goes to the log with the request id.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(sendError);
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

  const status = error.statusCode ?? 500;
  if (status >= 500) {
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ code: 'INTERNAL_ERROR', message: 'Something went wrong on our side.' });
  }
  if (status === 413) {
    return reply.status(413).send({ code: 'PAYLOAD_TOO_LARGE', message: 'That upload is too large.' });
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
