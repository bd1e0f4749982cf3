import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { safeEqual } from '../auth/tokens';
import { canPublish, canReceive, canSubscribe } from './access-table';

/** The broker asks with its peer's credentials (EMQX HTTP authn, mosquitto-go-auth http backend). */
const authBody = z.object({
  clientid: z.string().max(128).optional(),
  username: z.string().max(128).optional(),
  password: z.string().max(256).optional(),
  peerhost: z.string().max(64).optional(),
});

/** EMQX sends action publish|subscribe; mosquitto-go-auth sends acc 1 read, 2 write, 4 subscribe. */
const aclBody = z.object({
  clientid: z.string().max(128).optional(),
  username: z.string().max(128).optional(),
  topic: z.string().max(512),
  action: z.enum(['publish', 'subscribe']).optional(),
  acc: z.coerce.number().int().optional(),
});

const allow = (reply: FastifyReply) => reply.status(200).send({ result: 'allow' });
const deny = (reply: FastifyReply) => reply.status(403).send({ result: 'deny' });

/**
 * Device authentication and ACL for an external broker (`MQTT_URL` with `MQTT_AUTH_TOKEN`):
 * the broker's HTTP auth plugin asks these endpoints, which run the same authenticator and
 * the same access table as the embedded broker. Outside /api (no session, no XSRF): the
 * broker proves itself with the bearer token. Registered only when the token is set.
 */
export async function brokerHooksRoutes(app: FastifyInstance): Promise<void> {
  const token = app.config.mqttAuthToken;
  if (!token) return;

  const authorised = (request: FastifyRequest) => {
    const header = request.headers.authorization ?? '';
    return header.startsWith('Bearer ') && safeEqual(header.slice(7), token);
  };

  app.post('/mqtt/auth', async (request, reply) => {
    if (!authorised(request)) return reply.status(401).send({ result: 'deny' });
    const body = authBody.safeParse(request.body);
    if (!body.success) return deny(reply);
    const outcome = await app.gateway.authenticate({
      clientId: body.data.clientid ?? '',
      username: body.data.username,
      password: body.data.password,
      source: { alias: 'broker', address: body.data.peerhost },
    });
    return outcome.ok ? allow(reply) : deny(reply);
  });

  app.post('/mqtt/acl', async (request, reply) => {
    if (!authorised(request)) return reply.status(401).send({ result: 'deny' });
    const body = aclBody.safeParse(request.body);
    if (!body.success || !body.data.username || body.data.clientid !== body.data.username) return deny(reply);
    const device = await app.gateway.identity(body.data.username);
    if (!device) return deny(reply);
    // The broker does not say how the session authenticated: a device without a secret is
    // still in first contact.
    const session = {
      serial: device.serial,
      mode: device.secretHash ? ('secret' as const) : ('claim' as const),
    };
    const { action, acc, topic } = body.data;
    const ok =
      action === 'subscribe' || acc === 4
        ? canSubscribe(session, topic)
        : acc === 1
          ? canReceive(session, topic)
          : canPublish(session, topic).allowed;
    return ok ? allow(reply) : deny(reply);
  });
}
