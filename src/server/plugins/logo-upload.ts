import multipart from '@fastify/multipart';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../lib/app-error';
import { requireBusinessSelf, requireSession } from './auth';
import { sendError } from './errors';

/** The multipart body of a logo upload: one file in the field `logo` (the old client's field name). */
export const logoUploadBody = z
  .object(
    {
      logo: z
        .custom<Buffer>((value) => Buffer.isBuffer(value), {
          message: 'Please choose an image file for the logo.',
        })
        .meta({
          type: 'string',
          format: 'binary',
          description: 'PNG, JPEG or WebP, at most 2 MB and 4096×4096',
        }),
    },
    // No body at all, or one that is not a form: the same words as a form without the file.
    { error: 'Please choose an image file for the logo.' },
  )
  .meta({ id: 'LogoUpload' });

const LIMIT_CODES = new Set(['FST_FILES_LIMIT', 'FST_FIELDS_LIMIT', 'FST_PARTS_LIMIT']);

/** "2 MB", or "49 KB" for a limit under 1 MB (which would otherwise read "0 MB"). */
function sizeInWords(bytes: number): string {
  const mb = Math.round((bytes / 1024 / 1024) * 10) / 10;
  return mb >= 1 ? `${mb} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

const uuid = z.uuid();

/**
 * Who may upload, checked in onRequest: the multipart body is read (and buffered) before validation and the
 * handler, so without this an anonymous or foreign request would have its whole file read before being
 * refused (issue 12). The route's `:businessId` must be the signed-in business; a malformed id is left to
 * the params schema (400), as on every other route.
 */
async function requireLogoOwner(request: FastifyRequest): Promise<void> {
  await requireSession(request, 'business');
  const { businessId } = request.params as { businessId?: unknown };
  if (typeof businessId === 'string' && uuid.safeParse(businessId).success) {
    await requireBusinessSelf(request, businessId);
  }
}

/**
 * Accepts multipart in this scope only, buffered (a logo is small) and limited to one file of the
 * configured size; a larger file gets a 413 that says the limit. Every route in the scope is a business's
 * own logo at `…/:businessId`, and who asks is checked before the body is read.
 */
export async function acceptLogoUploads(scope: FastifyInstance, maxBytes: number): Promise<void> {
  scope.addHook('onRequest', requireLogoOwner);
  await scope.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: maxBytes, files: 1, fields: 5, parts: 6 },
  });
  const limit = sizeInWords(maxBytes);
  // A form that breaks off or has no boundary fails while it is read, before the handler, with a bare Error.
  const reachedHandler = new WeakSet<FastifyRequest>();
  scope.addHook('preHandler', async (request) => {
    reachedHandler.add(request);
  });
  scope.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) return sendError(error, request, reply);
    if (error.code === 'FST_REQ_FILE_TOO_LARGE') {
      const message = `That file is too large. A logo can be at most ${limit}.`;
      return sendError(
        new AppError('PAYLOAD_TOO_LARGE', message, { details: { fieldErrors: { logo: [message] } } }),
        request,
        reply,
      );
    }
    if (LIMIT_CODES.has(error.code)) {
      const message = 'Send one image file, in the field "logo".';
      return sendError(
        new AppError('VALIDATION_FAILED', message, { details: { fieldErrors: { logo: [message] } } }),
        request,
        reply,
      );
    }
    if (
      error.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' ||
      (error.statusCode === undefined && !error.validation && !reachedHandler.has(request))
    ) {
      return sendError(
        new AppError('VALIDATION_FAILED', 'Send the logo as multipart/form-data in the field "logo".'),
        request,
        reply,
      );
    }
    return sendError(error, request, reply);
  });
}
