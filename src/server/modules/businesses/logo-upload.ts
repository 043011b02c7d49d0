import multipart from '@fastify/multipart';
import type { FastifyError, FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { sendError } from '../../plugins/errors';

/** The multipart body of a logo upload: one file in the field `logo` (the old client's field name). */
export const logoUploadBody = z
  .object({
    logo: z
      .custom<Buffer>((value) => Buffer.isBuffer(value), { message: 'Please choose an image file for the logo.' })
      .meta({ type: 'string', format: 'binary', description: 'PNG, JPEG or WebP, at most 2 MB and 4096×4096' }),
  })
  .meta({ id: 'LogoUpload' });

/**
 * Accepts multipart in this scope only, buffered (a logo is small) and limited to one file of the
 * configured size; a larger file gets a 413 that says the limit.
 */
export async function acceptLogoUploads(scope: FastifyInstance, maxBytes: number): Promise<void> {
  await scope.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: maxBytes, files: 1, fields: 5, parts: 6 },
  });
  const limit = `${Math.round((maxBytes / 1024 / 1024) * 10) / 10} MB`;
  scope.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.code === 'FST_REQ_FILE_TOO_LARGE') {
      const message = `That file is too large. A logo can be at most ${limit}.`;
      return sendError(
        new AppError('PAYLOAD_TOO_LARGE', message, { details: { fieldErrors: { logo: [message] } } }),
        request,
        reply,
      );
    }
    if (error.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
      return sendError(new AppError('VALIDATION_FAILED', 'Send the logo as multipart/form-data in the field "logo".'), request, reply);
    }
    return sendError(error, request, reply);
  });
}
