import { createServer, type Server } from 'node:net';
import { Aedes } from 'aedes';

export type EmbeddedBroker = {
  aedes: Aedes;
  /** The TCP port the broker listens on (resolved when 0 was asked for). */
  port: number;
  close(): Promise<void>;
};

/**
 * The embedded MQTT broker (Aedes inside the server process, ARCHITECTURE §1). The device
 * gateway attaches its authentication and topic rules to `aedes`.
 */
export async function startEmbeddedBroker(port: number, host: string): Promise<EmbeddedBroker> {
  const aedes = await Aedes.createBroker();
  const server: Server = createServer(aedes.handle);
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
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
    },
  };
}
