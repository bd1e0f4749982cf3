import fastifyMultipart from '@fastify/multipart';
import { idResultSchema, okBody } from '@fleetgate/shared/schemas/api';
import {
  BRAND_IMAGE_KINDS,
  BRAND_IMAGE_MAX_BYTES,
  brandInputSchema,
  brandRecordSchema,
  brandSchema,
} from '@fleetgate/shared/schemas/brand';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, unprocessable } from '#src/http/errors';
import { idParams } from '../../http/params';
import { publicContext, serviceContext } from '../service-context';
import { brandService } from './brand.service';
import { TOO_LARGE } from './brand-image';

const imageParams = idParams.extend({ kind: z.enum(BRAND_IMAGE_KINDS) });
/** A model picture names its vendor model. */
const modelQuery = z.object({ model: z.string().max(60).optional() });
const imageQuery = modelQuery.extend({ v: z.string().max(64).optional() });

/** The uploaded file of a multipart request (field `file`), at most BRAND_IMAGE_MAX_BYTES. */
async function uploadedFile(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw badRequest('Send the file as multipart/form-data', 'file');
  const file = await request.file();
  if (file?.fieldname !== 'file') throw badRequest('No file selected', 'file');
  try {
    return await file.toBuffer();
  } catch (error) {
    if ((error as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw unprocessable(TOO_LARGE, 'file');
    throw error;
  }
}

/**
 * Brands of product §1, one per host name: read by everyone (the sign-in page is branded
 * too), changed by the super admin.
 */
export async function brandRoutes(app: FastifyInstance): Promise<void> {
  await app.register(fastifyMultipart, {
    limits: { fileSize: BRAND_IMAGE_MAX_BYTES, files: 1, fields: 5 },
  });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (request: FastifyRequest) => serviceContext(app, request);
  const superAdmin = { access: { permission: 'super_admin' as const } };

  r.get(
    '/api/brand',
    {
      config: { access: { public: true } },
      schema: {
        tags: ['brand'],
        summary: 'The brand of the host name this console is reached at',
        response: { 200: okBody(brandSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await brandService.forHost(publicContext(app, request), request.hostname),
    }),
  );

  r.put(
    '/api/brand',
    {
      config: superAdmin,
      schema: {
        tags: ['brand'],
        summary:
          'Change the brand of the host name this console is reached at (the default brand when none names it)',
        body: brandSchema,
        response: { 200: okBody(brandSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await brandService.updateForHost(ctx(request), request.hostname, request.body),
      message: 'Brand updated successfully',
    }),
  );

  r.get(
    '/api/brands',
    {
      config: superAdmin,
      schema: {
        tags: ['brand'],
        summary: 'Every brand, the default first, then by host name',
        response: { 200: okBody(z.array(brandRecordSchema)) },
      },
    },
    async (request) => ({ success: true as const, data: await brandService.list(ctx(request)) }),
  );

  r.post(
    '/api/brands',
    {
      config: superAdmin,
      schema: {
        tags: ['brand'],
        summary: 'Create a brand for a host name',
        body: brandInputSchema,
        response: { 200: okBody(brandRecordSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await brandService.create(ctx(request), request.body),
      message: 'Brand created successfully',
    }),
  );

  r.put(
    '/api/brands/:id',
    {
      config: superAdmin,
      schema: {
        tags: ['brand'],
        summary: 'Change a brand, its host name or whether it is the default',
        params: idParams,
        body: brandInputSchema,
        response: { 200: okBody(brandRecordSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await brandService.update(ctx(request), request.params.id, request.body),
      message: 'Brand updated successfully',
    }),
  );

  r.delete(
    '/api/brands/:id',
    {
      config: superAdmin,
      schema: {
        tags: ['brand'],
        summary: 'Delete a brand (not the default one)',
        params: idParams,
        response: { 200: okBody(idResultSchema) },
      },
    },
    async (request) => {
      await brandService.remove(ctx(request), request.params.id);
      return {
        success: true as const,
        data: { id: request.params.id },
        message: 'Brand deleted successfully',
      };
    },
  );

  r.post(
    '/api/brands/:id/images/:kind',
    {
      config: superAdmin,
      schema: {
        tags: ['brand'],
        summary:
          'Upload a brand’s favicon (SVG, PNG or ICO), logo (SVG) or the picture of a branded model (SVG or PNG, `model` names it), at most 256 KB; SVG is sanitised',
        consumes: ['multipart/form-data'],
        params: imageParams,
        querystring: modelQuery,
        response: { 200: okBody(brandRecordSchema) },
      },
    },
    async (request) => {
      const bytes = await uploadedFile(request);
      return {
        success: true as const,
        data: await brandService.putImage(
          ctx(request),
          request.params.id,
          request.params.kind,
          bytes,
          request.query.model,
        ),
        message: 'Brand image uploaded successfully',
      };
    },
  );

  r.get(
    '/api/brands/:id/images/:kind',
    {
      config: { access: { public: true, loadedByBrowser: true } },
      schema: {
        tags: ['brand'],
        summary:
          'A brand’s uploaded favicon or logo, as its bytes (kept for good when `v` names this version)',
        params: imageParams,
        querystring: imageQuery,
      },
    },
    async (request, reply) => {
      const { id, kind } = request.params;
      const image = await brandService.image(publicContext(app, request), id, kind, request.query.model);
      const etag = `"${image.digest}"`;
      // The address the brand points at names this version: it never changes under it.
      const current = request.query.v === image.digest.slice(0, 12);
      reply
        .header('content-type', image.contentType)
        .header('x-content-type-options', 'nosniff')
        // An SVG opened on its own runs nothing and fetches nothing, whatever slipped through.
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .header('etag', etag)
        .header('cache-control', current ? 'public, max-age=31536000, immutable' : 'no-cache');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      return reply.send(image.bytes);
    },
  );
}
