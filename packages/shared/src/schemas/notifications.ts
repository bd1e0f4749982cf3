import { z } from 'zod';
import { pageQuerySchema } from './list';

/**
 * Kinds of web notification. `message` is an operator's message to customers;
 * `creditAmountTooLow` warns that resources run low and carries the brand's buy link in
 * the bell (spec §2 Header widget 1). A feature that notifies adds its kind here.
 */
export const NOTIFICATION_TYPES = ['message', 'creditAmountTooLow'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** Longest summary a notification may carry: one readable paragraph. */
export const NOTIFICATION_SUMMARY_MAX = 500;
/** How many ids one PUT /notifications may mark seen. */
export const NOTIFICATION_MARK_MAX = 100;

/** A notification of spec §3 as the API and the socket send it. */
export const webNotificationSchema = z.object({
  id: z.number().int(),
  type: z.string(),
  /** Plain text, shown escaped. */
  summary: z.string(),
  /** Extra facts for the kind (company id, amounts, ...); never HTML. */
  data: z.record(z.string(), z.unknown()).nullable(),
  /** ISO 8601. */
  created_at: z.string(),
  /** ISO 8601; null while unseen (spec §4 Notification). */
  seen_at: z.string().nullable(),
});
export type WebNotification = z.infer<typeof webNotificationSchema>;

/** GET /notifications: the caller's, newest first (spec §7). */
export const notificationsQuerySchema = pageQuerySchema;

/** `meta` of GET /notifications: `total` of the caller's and how many are `unseen` (the badge). */
export const notificationsMetaSchema = z.object({
  total: z.number().int(),
  unseen: z.number().int(),
});

/** PUT /notifications body of spec §7: the ids (of the caller's unseen ones) to mark seen. */
export const markSeenBodySchema = z.strictObject({
  id: z
    .array(z.number().int().positive('Notification ids are positive whole numbers'))
    .min(1, 'Give at least one notification id')
    .max(NOTIFICATION_MARK_MAX, `At most ${NOTIFICATION_MARK_MAX} ids at once`),
});
export type MarkSeenBody = z.infer<typeof markSeenBodySchema>;

export const markSeenResultSchema = z.object({
  /** How many of the caller's unseen notifications were marked seen now. */
  updated: z.number().int(),
});

const summarySchema = z
  .string()
  .trim()
  .min(1, 'Summary is required')
  .max(NOTIFICATION_SUMMARY_MAX, `Summary must be at most ${NOTIFICATION_SUMMARY_MAX} characters`);

/**
 * POST /notifications (super admin): a message to one user (`user_id`) or to every user of
 * a company and the companies under it (`company_id`). Exactly one of the two.
 */
export const sendNotificationBodySchema = z
  .strictObject({
    type: z.enum(NOTIFICATION_TYPES).default('message'),
    summary: summarySchema,
    user_id: z.number().int().positive().optional(),
    company_id: z.number().int().positive().optional(),
  })
  .superRefine((body, ctx) => {
    if ((body.user_id === undefined) === (body.company_id === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['user_id'],
        message: 'Give either user_id or company_id',
      });
    }
  });
export type SendNotificationBody = z.input<typeof sendNotificationBodySchema>;

export const sendNotificationResultSchema = z.object({
  /** How many users received the notification. */
  recipients: z.number().int(),
});
