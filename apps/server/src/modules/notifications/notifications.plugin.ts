import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createNotifier, type Notifier } from './notifier';

declare module 'fastify' {
  interface FastifyInstance {
    /** Web notifications of product §3: `app.notifications.notify(...)` from any feature. */
    notifications: Notifier;
  }
}

/** Exposes the notifications service to every feature (CONVENTIONS example 7). */
export const notificationsPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('notifications', createNotifier(app.db, app.realtime));
  },
  { name: 'notifications', dependencies: ['realtime'] },
);
