import { z } from 'zod';
import {
  hasNoForbiddenChars,
  hasNoInvisibleChars,
  hasNoInvisibleCharsInText,
  INVISIBLE_NAME_MESSAGE,
  INVISIBLE_TEXT_MESSAGE,
} from '../limits';
import type { Json } from './api';
import { commaIntList, listQuerySchema } from './list';
import { body, fields, instant, listOf, oneOf, text, whole } from './messages';

/** Tag limits (product §3 Tag; the name follows the forbidden characters of product §5). */
export const TAG_NAME_MAX = 100;
export const TAG_DESCRIPTION_MAX = 500;
/** The colour a tag gets when none is chosen. */
export const TAG_DEFAULT_COLOR = '#228be6';
export const TAG_COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;
/** How many devices one tag request may name (product §7 bulk body). */
export const TAG_DEVICES_MAX = 1000;

export const tagNameSchema = text('Name')
  .trim()
  .min(1, 'Name is required')
  .max(TAG_NAME_MAX, `Name must be at most ${TAG_NAME_MAX} characters`)
  .refine(hasNoForbiddenChars, 'Name contains forbidden characters')
  .refine(hasNoInvisibleChars, INVISIBLE_NAME_MESSAGE);

export const tagDescriptionSchema = text('Description')
  .trim()
  .max(TAG_DESCRIPTION_MAX, `Description must be at most ${TAG_DESCRIPTION_MAX} characters`)
  .refine(hasNoInvisibleCharsInText, INVISIBLE_TEXT_MESSAGE);

export const tagColorSchema = text('Colour')
  .trim()
  .regex(TAG_COLOR_PATTERN, 'Colour must be a hex colour such as #228be6')
  .transform((v) => v.toLowerCase());

/** newTag (product §3): POST /tags; company_id, name (required), description, color. */
/** The company a tag goes to. */
export const tagCompanySchema = z.coerce
  .number({ error: 'Company is required' })
  .int('Company is required')
  .min(1, 'Company is required');

export const newTagBodySchema = body({
  /** Defaults to the caller's own company. */
  company_id: tagCompanySchema.optional(),
  name: tagNameSchema,
  description: tagDescriptionSchema.default(''),
  color: tagColorSchema.default(TAG_DEFAULT_COLOR),
});
export type NewTagBody = z.infer<typeof newTagBodySchema>;

/** Edit tag: a tag stays in its company; name, description and colour change. */
export const editTagBodySchema = body({
  name: tagNameSchema.optional(),
  description: tagDescriptionSchema.optional(),
  color: tagColorSchema.optional(),
});
export type EditTagBody = z.infer<typeof editTagBodySchema>;

/** 'Manage tags' on devices (product §2 device dialog, §7 bulk body `{action, device_id[]}`). */
export const deviceTagsBodySchema = body({
  action: z.enum(['add', 'remove'], { error: 'Action must be add or remove' }),
  tag_id: z.coerce.number({ error: 'Tag is required' }).int().min(1, 'Tag is required'),
  device_id: listOf(whole('Device').min(1, 'Device ids are positive whole numbers'), 'Devices')
    .min(1, 'Select at least one device')
    .max(TAG_DEVICES_MAX, `At most ${TAG_DEVICES_MAX} devices at a time`),
});
export type DeviceTagsBody = z.infer<typeof deviceTagsBodySchema>;

/** What 'Manage tags' answers: how many devices gained or lost the tag. */
export const deviceTagsResultSchema = fields('Result', {
  tag_id: whole('Tag id'),
  action: oneOf(['add', 'remove'], 'Action'),
  changed: whole('Changed'),
});
export type DeviceTagsResult = z.infer<typeof deviceTagsResultSchema>;

/** GET /tags: the list parameters and the tags of these companies. */
export const tagListQuerySchema = listQuerySchema.extend({ company_id: commaIntList.optional() });
export type TagListQuery = z.infer<typeof tagListQuerySchema>;

/** A tag as the API returns it (product §3 Tag plus its company name and device count). */
export const tagSchema = fields('Tag', {
  id: whole('Id'),
  company_id: whole('Company id'),
  company_name: text('Company name'),
  name: text('Name'),
  description: text('Description'),
  color: text('Colour'),
  devices_count: whole('Device count'),
  created_at: instant('Created at'),
  updated_at: instant('Updated at'),
});
export type Tag = z.infer<typeof tagSchema>;
/** The same as the console receives it (dates as ISO strings). */
export type TagJson = Json<Tag>;

/** Device status buckets of product §4: 0 Offline, 1 Online, 2 Pending, otherwise Not Activated. */
export const TAG_STATUS_BUCKETS = ['offline', 'online', 'pending', 'not_activated'] as const;
export type TagStatusBucket = (typeof TAG_STATUS_BUCKETS)[number];

/** management.tag_chart: the tag's devices counted by status and by model. */
export const tagChartSchema = fields('Tag chart', {
  tag: tagSchema,
  total: whole('Total'),
  by_status: listOf(
    fields('Status count', { status: oneOf(TAG_STATUS_BUCKETS, 'Status'), count: whole('Count') }),
    'Counts by status',
  ),
  by_model: listOf(
    fields('Model count', { model: text('Model').nullable(), count: whole('Count') }),
    'Counts by model',
  ),
});
export type TagChart = z.infer<typeof tagChartSchema>;
