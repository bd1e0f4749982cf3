import { z } from 'zod';
import { okBody } from './api';
import { pageQuerySchema } from './list';
import { anyObject, body, fields, listOf, oneOf, text, whole } from './messages';

/**
 * Kinds of web notification. `message` is an operator's message to customers;
 * `creditAmountTooLow` warns that resources run low and carries the brand's buy link in
 * the bell (product §2 Header widget 1). A feature that notifies adds its kind here.
 */
export const NOTIFICATION_TYPES = ['message', 'creditAmountTooLow'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** Longest summary a notification may carry: one readable paragraph. */
export const NOTIFICATION_SUMMARY_MAX = 500;
/** How many ids one PUT /notifications may mark seen. */
export const NOTIFICATION_MARK_MAX = 100;

/** A notification of product §3 as the API and the socket send it. */
export const webNotificationSchema = fields('Notification', {
  id: whole('Id'),
  type: text('Type'),
  /** Plain text, shown escaped. */
  summary: text('Summary'),
  /** Extra facts for the kind (company id, amounts, ...); never HTML. */
  data: anyObject('Data').nullable(),
  /** ISO 8601. */
  created_at: text('Created at'),
  /** ISO 8601; null while unseen (product §4 Notification). */
  seen_at: text('Seen at').nullable(),
});
export type WebNotification = z.infer<typeof webNotificationSchema>;

/** GET /notifications: the caller's, newest first (product §7). */
export const notificationsQuerySchema = pageQuerySchema;

/** `meta` of GET /notifications: `total` of the caller's and how many are `unseen` (the badge). */
export const notificationsMetaSchema = fields('Meta', {
  total: whole('Total'),
  unseen: whole('Unseen'),
});
export type NotificationsMeta = z.infer<typeof notificationsMetaSchema>;

/** The body of GET /notifications: the page of notifications, and its meta always. */
export const notificationsPageBodySchema = okBody(listOf(webNotificationSchema, 'Notifications')).extend({
  meta: notificationsMetaSchema,
});

/** PUT /notifications body of product §7: the ids (of the caller's unseen ones) to mark seen. */
const notificationId = z
  .number({ error: 'Notification ids are positive whole numbers' })
  .int('Notification ids are positive whole numbers')
  .positive('Notification ids are positive whole numbers');

export const markSeenBodySchema = body({
  id: listOf(notificationId, 'Notification ids')
    .min(1, 'Give at least one notification id')
    .max(NOTIFICATION_MARK_MAX, `At most ${NOTIFICATION_MARK_MAX} ids at once`),
});
export type MarkSeenBody = z.infer<typeof markSeenBodySchema>;

export const markSeenResultSchema = fields('Result', {
  /** How many of the caller's unseen notifications were marked seen now. */
  updated: whole('Updated'),
});
export type MarkSeenResult = z.infer<typeof markSeenResultSchema>;

const summarySchema = text('Summary')
  .trim()
  .min(1, 'Summary is required')
  .max(NOTIFICATION_SUMMARY_MAX, `Summary must be at most ${NOTIFICATION_SUMMARY_MAX} characters`);

/**
 * POST /notifications (super admin): a message to one user (`user_id`) or to every user of
 * a company and the companies under it (`company_id`). Exactly one of the two.
 */
const positiveId = (label: string) => whole(label).positive(`${label} must be a positive whole number`);

export const sendNotificationBodySchema = body({
  type: oneOf(NOTIFICATION_TYPES, 'Type').default('message'),
  summary: summarySchema,
  user_id: positiveId('User id').optional(),
  company_id: positiveId('Company id').optional(),
}).superRefine((body, ctx) => {
  if ((body.user_id === undefined) === (body.company_id === undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: ['user_id'],
      message: 'Give either user_id or company_id',
    });
  }
});
export type SendNotificationBody = z.input<typeof sendNotificationBodySchema>;

export const sendNotificationResultSchema = fields('Result', {
  /** How many users received the notification. */
  recipients: whole('Recipients'),
});
