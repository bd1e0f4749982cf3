import {
  type AdminNotice,
  NOTICE_MESSAGE_MAX,
  NOTICE_TYPES,
  type NoticeType,
  noticeCreateBodySchema,
  noticeEnableBodySchema,
} from '@fleetgate/shared/schemas/notices';
import type { FormDefinition } from '#src/lib/forms/types';
import { noticeKeys } from '../api/notices';
import { NoticePreviewButton } from '../components/NoticePreview';

/**
 * The notice form (product §3 Global notice): one definition for the create and edit
 * windows of the administration and for `/forms/notice/:id?`.
 */
export const noticeForm: FormDefinition = {
  name: 'notice',
  ns: 'notices',
  title: { create: 'form.createTitle', edit: 'form.editTitle' },
  endpoint: ({ id }) => (id ? `/admin/notices/${id}` : '/admin/notices'),
  method: ({ id }) => (id ? 'PUT' : 'POST'),
  schema: noticeCreateBodySchema,
  fields: [
    {
      key: 'type',
      label: 'field.type',
      type: 'select',
      required: true,
      options: NOTICE_TYPES.map((type) => ({ value: type, label: `type.${type}` })),
    },
    {
      key: 'message',
      label: 'field.message',
      type: 'textarea',
      required: true,
      maxlength: NOTICE_MESSAGE_MAX,
      hint: 'field.messageHint',
    },
    { key: 'enabled_at', label: 'field.enabledAt', type: 'datetime', hint: 'field.enabledAtHint' },
  ],
  defaults: { type: 'info', message: '', enabled_at: null },
  load: {
    path: (id) => `/admin/notices/${id}`,
    toValues: (data) => {
      const notice = data as AdminNotice;
      return { type: notice.type, message: notice.message, enabled_at: notice.enabled_at };
    },
  },
  permission: 'admin_view_notice',
  invalidate: [noticeKeys.all],
  result: { item: 'result.item', created: 'result.created', updated: 'result.updated' },
  fallbackPath: '/notices',
  extraActions: (values) => (
    <NoticePreviewButton
      type={(values.type as NoticeType | undefined) ?? 'info'}
      message={String(values.message ?? '')}
    />
  ),
};

/** 'Enable at…': shows a notice from a chosen time; empty means now. */
export const noticeEnableForm: FormDefinition = {
  name: 'noticeEnable',
  ns: 'notices',
  title: { create: 'enable.title' },
  endpoint: ({ id }) => `/admin/notices/${id}/enable`,
  schema: noticeEnableBodySchema,
  fields: [{ key: 'enabled_at', label: 'field.enabledAt', type: 'datetime', hint: 'enable.hint' }],
  defaults: { enabled_at: null },
  permission: 'admin_view_notice',
  invalidate: [noticeKeys.all],
  result: { item: 'result.item', created: 'result.enabled', updated: 'result.enabled' },
  submitLabel: 'enable.submit',
};
