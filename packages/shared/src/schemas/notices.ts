import { z } from 'zod';
import { listQuerySchema } from './list';
import { body, fields, oneOf, text, whole } from './messages';

/**
 * Global notices of product §3 (id, type, message as HTML, enabled_at): messages an
 * operator shows to every signed-in user from a moment on (product §2 header widget 2).
 *
 * Types: `info` (general news), `warning` (something users should act on),
 * `maintenance` (planned downtime), `update` (a new release or feature).
 */
export const NOTICE_TYPES = ['info', 'warning', 'maintenance', 'update'] as const;
export type NoticeType = (typeof NOTICE_TYPES)[number];

/** Longest message an operator may write (HTML source, before sanitising). */
export const NOTICE_MESSAGE_MAX = 5000;

/**
 * The rich-text allow-list of product §5: tags a, b, i, em, strong; href, target and class
 * on links; class on the others; link schemes http, https, ftp, mailto, tel. The server
 * sanitises with it before storing and the console again before showing.
 */
export const RICH_TEXT = {
  tags: ['a', 'b', 'i', 'em', 'strong'],
  attributes: {
    a: ['href', 'target', 'class'],
    b: ['class'],
    i: ['class'],
    em: ['class'],
    strong: ['class'],
  },
  schemes: ['http', 'https', 'ftp', 'mailto', 'tel'],
  /** Link targets kept; any other value is dropped. */
  targets: ['_blank', '_self'],
} as const;

/** An instant as an ISO 8601 string with an offset (`2025-01-01T10:00:00.000Z`). */
const instant = z.iso.datetime({ offset: true, message: 'Enter a valid date and time' });

const noticeFields = {
  type: z.enum(NOTICE_TYPES, { message: 'Choose a notice type' }),
  message: text('Message')
    .trim()
    .min(1, 'Message is required')
    .max(NOTICE_MESSAGE_MAX, `Message must be at most ${NOTICE_MESSAGE_MAX} characters`),
  /** Shown from this time on; null (or absent) keeps the notice disabled. A past time means now. */
  enabled_at: instant.nullable().optional(),
};

/** Create a notice (also the body of the notice form, product §3 Forms). */
export const noticeCreateBodySchema = body(noticeFields);
export type NoticeCreateBody = z.infer<typeof noticeCreateBodySchema>;

/** Change a notice: the same fields, all of them sent by the form. */
export const noticeUpdateBodySchema = body(noticeFields);
export type NoticeUpdateBody = z.infer<typeof noticeUpdateBodySchema>;

/** Enable a notice at a time; without one (absent or null), now. */
export const noticeEnableBodySchema = body({ enabled_at: instant.nullable().optional() });
export type NoticeEnableBody = z.infer<typeof noticeEnableBodySchema>;

/** What every signed-in user reads (product §3 Global notice, §7 GET /notices). */
export const noticeSchema = fields('Notice', {
  id: whole('Id'),
  type: oneOf(NOTICE_TYPES, 'Type'),
  /** Sanitised HTML (product §5). */
  message: text('Message'),
  enabled_at: text('Enabled at').nullable(),
});
export type Notice = z.infer<typeof noticeSchema>;

/** Where a notice stands: disabled (no time), scheduled (time ahead) or enabled. */
export const NOTICE_STATUSES = ['disabled', 'scheduled', 'enabled'] as const;
export type NoticeStatus = (typeof NOTICE_STATUSES)[number];

/** What the notice administration reads. */
export const adminNoticeSchema = noticeSchema.extend({
  status: oneOf(NOTICE_STATUSES, 'Status'),
  created_by: whole('Created by').nullable(),
  created_at: text('Created at'),
  updated_at: text('Updated at'),
});
export type AdminNotice = z.infer<typeof adminNoticeSchema>;

/** Filters of the administration list. */
export const adminNoticeFilterSchema = fields('Filters', {
  status: oneOf(NOTICE_STATUSES, 'Status').optional(),
  type: oneOf(NOTICE_TYPES, 'Type').optional(),
});

/** GET /admin/notices: the list parameters and the filters. */
export const adminNoticeListQuerySchema = listQuerySchema.extend(adminNoticeFilterSchema.shape);

/** POST /admin/notices/{id}/disable: nothing, or an empty object. */
export const noticeDisableBodySchema = body({}).optional();
