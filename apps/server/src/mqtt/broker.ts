import { createServer, type Server } from 'node:net';
import { MAX_FRAME_BYTES } from '@fleetgate/shared/devices/messages';
import { Aedes } from 'aedes';
import { GuardedConnection } from '../gateway/frame-guard';

export type EmbeddedBroker = {
  aedes: Aedes;
  /** The TCP port the broker listens on (resolved when 0 was asked for). */
  port: number;
  close(): Promise<void>;
};

/**
 * The embedded MQTT broker (Aedes inside the server process, ARCHITECTURE §1). The device
 * gateway attaches its authentication and topic rules to `aedes`. Every connection goes
 * through a frame guard: a frame over MAX_FRAME_BYTES closes it before it is buffered.
 */
export async function startEmbeddedBroker(port: number, host: string): Promise<EmbeddedBroker> {
  const aedes = await Aedes.createBroker({ drainTimeout: 30_000, maxClientsIdLength: 64 });
  const server: Server = createServer((socket) => {
    aedes.handle(new GuardedConnection(socket, MAX_FRAME_BYTES, socket.remoteAddress, () => {}));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return {
    aedes,
    port: typeof address === 'object' && address ? address.port : port,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await closed;
    },
  };
}
