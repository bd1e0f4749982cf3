import { DEVICE_STATUS } from '@fleetgate/shared/devices/status';
import type { FastifyInstance } from 'fastify';
import { findUserByEmail } from '../users/principal.repository';
import { devicesRepository } from './devices.repository';

/** At most one 'went offline' notice this often, whatever the fleet does: a demo, not an alarm. */
const OFFLINE_NOTICE_GAP_MS = 5 * 60_000;

/**
 * The demo's notifications (`npm start -- --demo`), so that a newcomer sees the bell work:
 * a low balance once, and now and then a demo device that lost its connection, each told
 * to the company's users and the super admin who explores the demo. Finished actions are
 * told to whoever started them, demo or not (batch-notices.ts).
 */
export async function startDemoNotices(
  app: FastifyInstance,
  demo: { companyIds: ReadonlyMap<string, number>; deviceIds: ReadonlySet<number> },
): Promise<() => void> {
  const admin = await findUserByEmail(app.db, app.config.adminEmail);
  const tell = async (companyId: number, input: Parameters<typeof app.notifications.notify>[1]) => {
    await app.notifications.notify({ companySubtree: companyId }, input);
    if (admin) await app.notifications.notify([admin.id], input);
  };

  const [first] = demo.companyIds;
  if (first) {
    const [name, companyId] = first;
    await tell(companyId, {
      type: 'creditAmountTooLow',
      summary: `${name} has 3 credits left. Devices whose service ends stop reporting until new credits are activated.`,
      data: { company_id: companyId },
      once: 'demo:low-balance',
    });
  }

  let lastOffline = 0;
  const onStatus = (change: { device_id: number; company_id: number; status: number }) => {
    if (change.status !== DEVICE_STATUS.offline || !demo.deviceIds.has(change.device_id)) return;
    const now = Date.now();
    if (now - lastOffline < OFFLINE_NOTICE_GAP_MS) return;
    lastOffline = now;
    void (async () => {
      const device = await devicesRepository.findById(app.db, change.device_id);
      if (!device) return;
      await tell(change.company_id, {
        type: 'message',
        summary: `${device.name} (${device.serial}) lost its connection at ${new Date(now).toISOString().slice(11, 16)} UTC.`,
        data: { device_id: device.id },
      });
    })().catch((error: unknown) => app.log.warn({ err: error }, 'demo notice failed'));
  };
  app.deviceTaps.statusChanged.add(onStatus);
  return () => app.deviceTaps.statusChanged.delete(onStatus);
}
