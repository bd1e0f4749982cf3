import { z } from 'zod';
import { body, fields, instant, oneOf, text, whole } from './messages';

/** The protocols a device web page is opened with (product §2 'web UI' dialog; §9 http 80, https 443). */
export const WEB_PAGE_PROTOCOLS = ['http', 'https'] as const;
export type WebPageProtocol = (typeof WEB_PAGE_PROTOCOLS)[number];

/** Seconds a web page link may wait to be opened: it is for the browser that just asked for it. */
export const WEB_LINK_SECONDS = 60;

const id = (label: string) =>
  z.coerce
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(1, `${label} must be a whole number`);

/**
 * Opening a device's web page (POST /remote/web): a remote entry of protocol http or https
 * (`entry_id`), or the device's own web UI (`device_id`, http unless `protocol` says, on the
 * protocol's port unless `port` says).
 */
export const webPageBodySchema = body({
  entry_id: id('Entry').optional(),
  device_id: id('Device').optional(),
  protocol: oneOf(WEB_PAGE_PROTOCOLS, 'Protocol').optional(),
  port: whole('Port')
    .min(1, 'Port must be between 1 and 65535')
    .max(65_535, 'Port must be between 1 and 65535')
    .optional(),
})
  .refine((b) => (b.device_id === undefined) !== (b.entry_id === undefined), {
    path: ['device_id'],
    message: 'Choose a device or a remote entry',
  })
  .refine((b) => b.entry_id === undefined || (b.protocol === undefined && b.port === undefined), {
    path: ['entry_id'],
    message: 'A remote entry brings its own protocol and port',
  });
export type WebPageBody = z.infer<typeof webPageBodySchema>;

/** The link that opens the page on the proxy's origin: once, by the user who asked, before `expires_at`. */
export const webPageLinkSchema = fields('Web page link', {
  url: text('Link'),
  expires_at: instant('Expires at'),
});
export type WebPageLink = z.infer<typeof webPageLinkSchema>;
