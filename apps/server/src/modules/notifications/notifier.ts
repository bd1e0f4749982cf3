import { notificationsChannel } from '@fleetgate/shared/events';
import {
  NOTIFICATION_SUMMARY_MAX,
  type NotificationType,
  type WebNotification,
} from '@fleetgate/shared/schemas/notifications';
import type { Db } from '#src/db/database';
import type { Realtime } from '#src/realtime/realtime';
import { presentNotification } from './notifications.presenter';
import { notificationsRepository } from './notifications.repository';

/** Who receives a notification: users by id, or every user of a company and the companies under it. */
export type NotifyTarget = readonly number[] | { companySubtree: number };

export type NotificationInput = {
  type: NotificationType;
  /** Plain text (shown escaped), at most NOTIFICATION_SUMMARY_MAX characters. */
  summary: string;
  /** Facts for the kind, e.g. `{ company_id }` on creditAmountTooLow. */
  data?: Record<string, unknown> | null;
  /**
   * Sends it at most once per recipient and key, whichever server or retry sends it again
   * (e.g. `batch:{id}` for a finished action).
   */
  once?: string;
};

/** How features tell users something: `ctx.notifications.notify(...)` (app.notifications). */
export type Notifier = {
  /**
   * Stores one notification per recipient and pushes each to its owner's channel
   * `private-notifications.{userId}` as WebNotificationCreated (product §4, §7). Unknown
   * user ids and an unknown company are skipped: nobody is there to tell.
   */
  notify(target: NotifyTarget, input: NotificationInput): Promise<WebNotification[]>;
};

async function recipientsOf(db: Db, target: NotifyTarget): Promise<number[]> {
  if (Array.isArray(target)) {
    const ids = [...new Set(target as readonly number[])].filter((id) => Number.isInteger(id) && id > 0);
    return notificationsRepository.existingUserIds(db, ids);
  }
  const { companySubtree } = target as { companySubtree: number };
  const path = await notificationsRepository.companyPath(db, companySubtree);
  return path ? notificationsRepository.userIdsInSubtree(db, path) : [];
}

export function createNotifier(db: Db, realtime: Realtime): Notifier {
  return {
    async notify(target, input) {
      const summary = input.summary.trim();
      if (!summary || summary.length > NOTIFICATION_SUMMARY_MAX) {
        throw new Error(`A notification summary must be 1 to ${NOTIFICATION_SUMMARY_MAX} characters`);
      }
      const userIds = await recipientsOf(db, target);
      if (userIds.length === 0) return [];
      const rows = await notificationsRepository.insertMany(
        db,
        userIds.map((userId) => ({
          userId,
          type: input.type,
          summary,
          data: input.data ?? null,
          onceKey: input.once ?? null,
        })),
      );
      // Published after the rows are committed, so a browser that reloads on the event finds them.
      const presented = rows.map((row) => {
        const notification = presentNotification(row);
        realtime.publish(notificationsChannel(row.userId), 'WebNotificationCreated', notification);
        return notification;
      });
      return presented;
    },
  };
}
