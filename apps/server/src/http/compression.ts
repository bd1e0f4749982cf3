import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this go out as they are: compressing them saves less than it costs. */
export const COMPRESSION_THRESHOLD = 1024;

/**
 * Compresses answers on the fly when the client asks (brotli, else gzip), with
 * `Vary: Accept-Encoding`. Registered before the routes, since it attaches itself to each
 * route as it is added. Left alone: answers below the threshold, types that do not shrink
 * (images, archives, `application/octet-stream` downloads), partial content, and anything
 * already encoded, such as the console's files, precompressed at build and picked by
 * @fastify/static (plugins/spa.ts). socket.io and MQTT over WebSocket never pass through
 * Fastify's replies. Request bodies are not decompressed: clients send them plain, as before.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    threshold: COMPRESSION_THRESHOLD,
    encodings: ['br', 'gzip'],
    globalDecompression: false,
  });
}
