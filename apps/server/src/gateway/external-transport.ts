import { randomBytes } from 'node:crypto';
import { SERVER_FILTERS, SHARED_GROUP, sharedFilter, TOPIC_ROOT } from '@fleetgate/shared/devices/topics';
import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import type { InboundRouter } from './inbound';

/** Device traffic every instance shares: one instance of the group gets each message. */
const SHARED_KINDS = ['hello', 'state', 'event', 'reply/+'] as const;

/**
 * External broker mode (`MQTT_URL`, ARCHITECTURE §1): the server is a privileged MQTT 5
 * client. It consumes device traffic with shared subscriptions (`$share/fleetgate/...`) so
 * N instances split it, and status without sharing, because a broker does not hand
 * retained messages to shared subscriptions and each instance wants the current state.
 * Device authentication and topic ACLs are the broker's job here (docs/device-protocol.md).
 */
export class ExternalTransport {
  private client: MqttClient | undefined;

  constructor(
    private readonly url: string,
    private readonly router: InboundRouter,
    private readonly log: FastifyBaseLogger,
    private readonly options: { group?: string; clientId?: string } = {},
  ) {}

  async start(): Promise<void> {
    const clientId = this.options.clientId ?? `fleetgate-server-${randomBytes(6).toString('hex')}`;
    const client = mqtt.connect(this.url, {
      protocolVersion: 5,
      clientId,
      clean: true,
      reconnectPeriod: 2000,
      connectTimeout: 10_000,
      manualConnect: true,
    });
    this.client = client;
    // A QoS 1 message is acknowledged once its handler has finished (durable before PUBACK).
    client.handleMessage = (packet, callback) => {
      if (!packet.topic.startsWith(`${TOPIC_ROOT}/`)) return callback();
      const payload =
        typeof packet.payload === 'string' ? Buffer.from(packet.payload) : Buffer.from(packet.payload);
      // mqtt.js reads the next message after the callback: backpressure as in the embedded broker.
      // The retain flag is set only on a retained message handed over because the server
      // subscribed (MQTT-3.3.1-8/9; retain-as-published is not asked for).
      void this.router
        .handle(packet.topic, payload, { replayed: packet.retain === true })
        .then(() => this.router.room())
        .finally(() => callback());
    };
    client.on('error', (error) => this.log.warn({ err: error.message }, 'external broker error'));
    client.on('connect', () => {
      const group = this.options.group ?? SHARED_GROUP;
      const filters = SHARED_KINDS.map((k) => sharedFilter(`${TOPIC_ROOT}/+/up/${k}`, group));
      client.subscribe([...filters, SERVER_FILTERS.status], { qos: 1 }, (error) => {
        if (error) this.log.error({ err: error.message }, 'external broker subscription failed');
      });
    });
    await new Promise<void>((resolve, reject) => {
      const fail = (error: Error) => {
        client.end(true);
        reject(new Error(`Cannot reach the MQTT broker at ${new URL(this.url).host}: ${error.message}`));
      };
      client.once('connect', () => {
        client.off('error', fail);
        resolve();
      });
      client.once('error', fail);
      client.connect();
    });
  }

  publish(topic: string, payload: string): Promise<void> {
    const client = this.client;
    if (!client) return Promise.reject(new Error('not connected'));
    return new Promise((resolve, reject) =>
      client.publish(topic, payload, { qos: 1, retain: false }, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) await client.endAsync();
  }
}
