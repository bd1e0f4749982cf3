import { Readable } from 'node:stream';
import { idResultSchema, okBody } from '@fleetgate/shared/schemas/api';
import {
  portForwardBodySchema,
  portForwardSchema,
  remoteEntryBodySchema,
  remoteEntryListQuerySchema,
  remoteEntrySchema,
  remoteEntryUpdateSchema,
  remoteSessionListQuerySchema,
  remoteSessionSchema,
  sftpEntrySchema,
  sftpMkdirBodySchema,
  sftpOpenBodySchema,
  sftpPathQuerySchema,
  sftpRenameBodySchema,
  sftpSessionSchema,
  sharedTargetSchema,
  shareLinkBodySchema,
  shareLinkCreatedSchema,
  shareLinkSchema,
} from '@fleetgate/shared/schemas/remote';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest } from '#src/http/errors';
import { pickFields } from '#src/http/list-query';
import { idParams, recordId } from '../../http/params';
import { serviceContext } from '../service-context';
import { remoteService } from './remote.service';
import { sftpService } from './sftp';
import { shareLinksService } from './share-links';

const sessionParams = z.object({ id: z.string().max(64) });
const pathResult = z.object({ path: z.string() });

/**
 * Remote access (product §2 remote.access, remote.info, service.connect-history, device.access;
 * §7 /devices/remote-access): the entries users open and the history of the sessions. The
 * sessions themselves run over WebSockets (terminal-bridge.ts). Opening and managing entries is an
 * action on the device: view_device_remote_access and manage_devices.
 */
export async function remoteRoutes(app: FastifyInstance): Promise<void> {
  const forwards = app.forwards;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (request: FastifyRequest) => serviceContext(app, request);
  const tags = ['remote access'];
  const view = { access: { permission: 'view_device_remote_access' as const } };
  const manage = {
    access: { permission: ['view_device_remote_access', 'manage_devices'] as const, mode: 'all' as const },
  };

  r.get(
    '/api/devices/remote-access',
    {
      config: view,
      schema: {
        tags,
        summary: 'Remote entries of the devices the caller reaches (by device, by protocol)',
        querystring: remoteEntryListQuerySchema,
        response: { 200: okBody(z.array(remoteEntrySchema.partial())) },
      },
    },
    async (request) => {
      const { rows, total, fields } = await remoteService.entries(ctx(request), request.query);
      return { success: true as const, data: pickFields(rows, fields), meta: { total } };
    },
  );

  r.get(
    '/api/devices/remote-access/:id',
    {
      config: view,
      schema: {
        tags,
        summary: 'One remote entry',
        params: idParams,
        response: { 200: okBody(remoteEntrySchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await remoteService.entry(ctx(request), request.params.id),
    }),
  );

  r.post(
    '/api/devices/remote-access',
    {
      config: manage,
      schema: {
        tags,
        summary:
          "Add a remote entry: a device's service or a LAN host's, its protocol and port ('add remote')",
        body: remoteEntryBodySchema,
        response: { 200: okBody(remoteEntrySchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await remoteService.createEntry(ctx(request), request.body),
      message: 'Remote entry created successfully',
    }),
  );

  r.put(
    '/api/devices/remote-access/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Change a remote entry (name, protocol, host, port, enabled)',
        params: idParams,
        body: remoteEntryUpdateSchema,
        response: { 200: okBody(remoteEntrySchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await remoteService.updateEntry(ctx(request), request.params.id, request.body),
      message: 'Remote entry updated successfully',
    }),
  );

  r.delete(
    '/api/devices/remote-access/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Remove a remote entry (its sessions stay in the history)',
        params: idParams,
        response: { 200: okBody(idResultSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await remoteService.removeEntry(ctx(request), request.params.id),
      message: 'Remote entry removed successfully',
    }),
  );

  r.get(
    '/api/remote/sessions',
    {
      config: view,
      schema: {
        tags,
        summary: 'The access history: every remote session, who opened it, what it reached, its bytes',
        querystring: remoteSessionListQuerySchema,
        response: { 200: okBody(z.array(remoteSessionSchema.partial())) },
      },
    },
    async (request) => {
      const { rows, total, fields } = await remoteService.sessions(ctx(request), request.query);
      return { success: true as const, data: pickFields(rows, fields), meta: { total } };
    },
  );

  r.get(
    '/api/remote/sessions/:id/recording',
    {
      config: view,
      schema: {
        tags,
        summary: "A terminal session's recording (asciicast v2: what the user saw, not what they typed)",
        params: sessionParams,
      },
    },
    async (request, reply) => {
      const file = await remoteService.recording(ctx(request), request.params.id);
      return reply
        .type('application/x-asciicast')
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="session-${request.params.id}.cast"`)
        .send(file);
    },
  );

  r.delete(
    '/api/remote/sessions/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'End a live remote session',
        params: sessionParams,
        response: { 200: okBody(z.object({ id: z.string() })) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await remoteService.endSession(ctx(request), request.params.id),
      message: 'Session ended successfully',
    }),
  );

  r.post(
    '/api/remote/forwards',
    {
      config: manage,
      schema: {
        tags,
        summary:
          'Open a port forward: a TCP port of the server that reaches a device service through its tunnel, for 1 minute to a day',
        body: portForwardBodySchema,
        response: { 200: okBody(portForwardSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await forwards.open(ctx(request), request.body),
      message: 'Port forward opened successfully',
    }),
  );

  r.get(
    '/api/remote/forwards',
    {
      config: view,
      schema: {
        tags,
        summary: 'The open port forwards of devices the caller reaches',
        querystring: z.object({ device_id: z.coerce.number().int().min(1).optional() }),
        response: { 200: okBody(z.array(portForwardSchema)) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await forwards.list(ctx(request), request.query.device_id),
    }),
  );

  r.delete(
    '/api/remote/forwards/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Close a port forward and its connections',
        params: sessionParams,
        response: { 200: okBody(z.object({ id: z.string() })) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await forwards.revoke(ctx(request), request.params.id),
      message: 'Port forward closed successfully',
    }),
  );

  // Uploads arrive as the file's bytes, streamed to the device as they come (sftp.ts counts
  // them against the 80 MB limit): this parser hands the body over unread.
  app.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));

  r.post(
    '/api/remote/sftp',
    {
      config: manage,
      schema: {
        tags,
        summary:
          "Open the file browser: SFTP to a device's SSH service or an ssh/sftp entry, signed in as a device user",
        body: sftpOpenBodySchema,
        response: { 200: okBody(sftpSessionSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await sftpService.open(ctx(request), app.tunnels, request.body),
    }),
  );

  r.get(
    '/api/remote/sftp/:id/list',
    {
      config: manage,
      schema: {
        tags,
        summary: 'The entries of a folder on the device, folders first',
        params: sessionParams,
        querystring: sftpPathQuerySchema,
        response: { 200: okBody(z.array(sftpEntrySchema)) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await sftpService.list(ctx(request), request.params.id, request.query.path),
    }),
  );

  r.get(
    '/api/remote/sftp/:id/file',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Download a file from the device (streamed; Content-Length is its size)',
        params: sessionParams,
        querystring: sftpPathQuerySchema,
      },
    },
    async (request, reply) => {
      const file = await sftpService.download(ctx(request), request.params.id, request.query.path);
      return reply
        .type('application/octet-stream')
        .header('content-length', file.size)
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`)
        .send(file.stream);
    },
  );

  r.put(
    '/api/remote/sftp/:id/file',
    {
      config: manage,
      schema: {
        tags,
        summary:
          "Upload a file to the device: the body is the file's bytes (application/octet-stream, at most 80 MB)",
        params: sessionParams,
        querystring: sftpPathQuerySchema,
        response: { 200: okBody(pathResult.extend({ size: z.number() })) },
      },
    },
    async (request, reply) => {
      const length = request.headers['content-length'];
      if (!(request.body instanceof Readable)) throw badRequest('Send the file as application/octet-stream');
      try {
        return {
          success: true as const,
          data: await sftpService.upload(
            ctx(request),
            request.params.id,
            request.query.path,
            request.body,
            length === undefined ? undefined : Number(length),
          ),
          message: 'File uploaded successfully',
        };
      } catch (error) {
        // The rest of a refused upload is not read: the connection closes after the answer.
        void reply.header('connection', 'close');
        throw error;
      }
    },
  );

  r.post(
    '/api/remote/sftp/:id/rename',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Rename or move a file or folder on the device (never over an existing one)',
        params: sessionParams,
        body: sftpRenameBodySchema,
        response: { 200: okBody(pathResult) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await sftpService.rename(ctx(request), request.params.id, request.body.from, request.body.to),
      message: 'Renamed successfully',
    }),
  );

  r.post(
    '/api/remote/sftp/:id/folders',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Create a folder on the device',
        params: sessionParams,
        body: sftpMkdirBodySchema,
        response: { 200: okBody(pathResult) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await sftpService.mkdir(ctx(request), request.params.id, request.body.path),
      message: 'Folder created successfully',
    }),
  );

  r.delete(
    '/api/remote/sftp/:id/file',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Delete a file, or an empty folder, on the device',
        params: sessionParams,
        querystring: sftpPathQuerySchema,
        response: { 200: okBody(pathResult) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await sftpService.remove(ctx(request), request.params.id, request.query.path),
      message: 'Deleted successfully',
    }),
  );

  r.delete(
    '/api/remote/sftp/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Close the file browser and its session',
        params: sessionParams,
        response: { 200: okBody(z.object({ id: z.string() })) },
      },
    },
    async (request) => ({
      success: true as const,
      data: sftpService.close(ctx(request), request.params.id),
    }),
  );

  r.post(
    '/api/remote/share-links',
    {
      config: manage,
      schema: {
        tags,
        summary:
          'Make a share link: whoever holds it opens one SSH or VNC entry without signing in, for 1 minute to a day (the key is shown once)',
        body: shareLinkBodySchema,
        response: { 200: okBody(shareLinkCreatedSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await shareLinksService.create(ctx(request), request.body),
      message: 'Share link created successfully',
    }),
  );

  r.get(
    '/api/remote/share-links',
    {
      config: view,
      schema: {
        tags,
        summary: "An entry's share links: who made them, until when, how often used (never the key)",
        querystring: z.object({ entry_id: recordId('Entry') }),
        response: { 200: okBody(z.array(shareLinkSchema)) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await shareLinksService.list(ctx(request), request.query.entry_id),
    }),
  );

  r.delete(
    '/api/remote/share-links/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Revoke a share link; the sessions opened with it end',
        params: sessionParams,
        response: { 200: okBody(z.object({ id: z.string() })) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await shareLinksService.revoke(ctx(request), request.params.id),
      message: 'Share link revoked successfully',
    }),
  );

  r.get(
    '/api/remote/share/:key',
    {
      config: { access: { public: true } },
      schema: {
        tags,
        summary: "What a share link opens, for its holder's launcher (no sign-in: the key is the right)",
        params: z.object({ key: z.string().max(64) }),
        response: { 200: okBody(sharedTargetSchema) },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return { success: true as const, data: await shareLinksService.describe(app.db, request.params.key) };
    },
  );
}
