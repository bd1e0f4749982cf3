import { BRAND_DEFAULTS, sameModel } from '@fleetgate/shared/brand';
import { DEVICE_SERIES, MODEL_NAMES } from '@fleetgate/shared/devices/catalogue';
import { pathOf, ROUTES } from '@fleetgate/shared/routes';
import {
  type BrandImageKind,
  type BrandInput,
  type BrandRecord,
  brandInputSchema,
} from '@fleetgate/shared/schemas/brand';
import {
  ActionIcon,
  Alert,
  Autocomplete,
  Button,
  ColorInput,
  FileButton,
  Grid,
  Group,
  MultiSelect,
  Paper,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { type FormEvent, type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useWindows } from '#src/lib/dialogs/use-windows';
import { mapSubmitError, zodFieldErrors } from '#src/lib/forms/errors';
import { useAction } from '#src/lib/http/use-action';
import { type BrandRecordJson, brandActions, brandKeys } from '../api/brands';
import { BrandPreview } from './BrandPreview';
import { PairRows } from './PairRows';

/** The editor's values: a brand's settings and host, the host as typed ('' for none). */
type Values = Omit<BrandInput, 'host'> & { host: string };

type ImageUpload = { kind: BrandImageKind; file: File; model?: string };

/** The stored picture of a vendor model, from the brand the server answered. */
function pictureOf(devices: Values['branded_devices'], model: string | undefined): string {
  return devices.find((d) => sameModel(d.original_model, model))?.branded_model_image ?? '';
}

/** The field under which a failed upload is told. */
function imageField({ kind, model }: ImageUpload, values: Values): string {
  if (kind === 'favicon') return 'favicon';
  if (kind === 'logo') return 'logo_vector';
  const index = values.branded_devices.findIndex((d) => sameModel(d.original_model, model));
  return `branded_devices.${index}.branded_model_image`;
}

function valuesOf(record: BrandRecordJson | undefined): Values {
  if (!record) return { ...BRAND_DEFAULTS, default: false, host: '' };
  const { id: _id, updated_at: _updated, host, ...settings } = record as BrandRecordJson & BrandRecord;
  return { ...settings, host: host ?? '' };
}

/** The routes a brand may hide (product §2, §5): every screen of the table a user can reach. */
function routeChoices() {
  // The brands pages stay: hiding them would lock the super admin out of undoing it.
  const hideable = (name: string) => name !== 'form' && !name.startsWith('system.brand');
  return ROUTES.filter(
    (route) => route.path && !route.public && !route.standalone && hideable(route.name),
  ).map((route) => ({
    value: route.name,
    label: `${i18next.t(`routes:${route.name}`, { defaultValue: route.name })} (${route.path})`,
  }));
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md">
      <Title order={3} size="h5" mb="sm">
        {title}
      </Title>
      <Stack gap="sm">{children}</Stack>
    </Paper>
  );
}

/**
 * The form of one brand (product §1): every setting, its images, and a preview that follows
 * each keystroke. A new brand is saved before its images can be uploaded (they belong to it).
 */
export function BrandEditor({ record }: { record: BrandRecordJson | undefined }) {
  const { t } = useTranslation('brands');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const windows = useWindows();
  const [values, setValues] = useState<Values>(() => valuesOf(record));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const routes = useMemo(routeChoices, []);
  // A model's picture can be uploaded once the saved brand holds that model.
  const saved = (model: string) =>
    record?.branded_devices.some((d) => sameModel(d.original_model, model)) ?? false;
  const fieldKeys = Object.keys(values);

  const showFailure = (_message: string, error: unknown) => {
    const mapped = mapSubmitError(error, { fieldKeys });
    if (!mapped) return;
    setErrors(mapped.fields);
    setFormError(mapped.form.join(' ') || null);
  };
  const save = useAction({
    call: (body: BrandInput) => (record ? brandActions.update(record.id, body) : brandActions.create(body)),
    failure: { verb: record ? 'update' : 'create', item: 'brand' },
    invalidate: [brandKeys.all],
    success: record ? t('saved') : t('created'),
    onSuccess: (result) => {
      if (record) return;
      // The new brand's page finds it at once, before the list is read again.
      queryClient.setQueryData<BrandRecordJson[]>(brandKeys.all, (all) => [...(all ?? []), result.data]);
      navigate(pathOf('system.brand', { id: result.data.id }));
    },
    onFailure: showFailure,
  });
  // An image belongs to the saved brand; only the field it fills changes in the form, so
  // edits not saved yet stay as they are.
  const upload = useAction({
    call: ({ kind, file, model }: ImageUpload) => brandActions.upload(record!.id, kind, file, model),
    failure: { verb: 'upload', item: 'brand image' },
    invalidate: [brandKeys.all],
    success: t('uploaded'),
    onSuccess: (result, { kind, model }) =>
      setValues((v) => {
        if (kind === 'favicon') return { ...v, favicon: result.data.favicon };
        if (kind === 'logo') return { ...v, logo_vector: result.data.logo_vector };
        const picture = pictureOf(result.data.branded_devices, model);
        return {
          ...v,
          branded_devices: v.branded_devices.map((d) =>
            sameModel(d.original_model, model) ? { ...d, branded_model_image: picture } : d,
          ),
        };
      }),
    onFailure: (message, error, vars) => {
      const mapped = mapSubmitError(error, { fieldKeys });
      setErrors((e) => ({ ...e, [imageField(vars, values)]: mapped?.form[0] ?? message }));
    },
  });
  const remove = useAction({
    call: (id: number) => brandActions.remove(id),
    failure: { verb: 'delete', item: 'brand' },
    invalidate: [brandKeys.all],
    success: t('deleted'),
    onSuccess: () => navigate(pathOf('system.brands')),
  });

  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: '' }));
  };
  const input = (
    key: 'company_name' | 'app_name' | 'full_app_name' | 'logo_subtext' | 'title_text' | 'buy_link',
  ) => ({
    label: t(`field.${key}`),
    value: values[key],
    error: errors[key],
    onChange: (event: { currentTarget: { value: string } }) => set(key, event.currentTarget.value),
    'data-testid': `brand-${key}`,
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (save.pending) return;
    setFormError(null);
    const body = { ...values, host: values.host.trim() || null };
    const parsed = brandInputSchema.safeParse(body);
    if (!parsed.success) {
      const fields: Record<string, string> = zodFieldErrors(parsed.error.issues);
      for (const issue of parsed.error.issues) fields[issue.path.join('.')] ??= issue.message;
      return setErrors(fields);
    }
    await save.run(parsed.data);
  }

  async function confirmRemove() {
    if (!record) return;
    const sure = await windows.confirm({
      title: t('delete.title'),
      message: t('delete.message', { name: record.host ?? record.app_name }),
      confirmLabel: t('delete.confirm'),
      danger: true,
    });
    if (sure) await remove.run(record.id);
  }

  const image = (kind: BrandImageKind, key: 'favicon' | 'logo_vector') => (
    <Group gap="sm" align="center" wrap="nowrap">
      <img
        src={values[key] || '/favicon.svg'}
        width={40}
        height={40}
        alt={t(`field.${key}`)}
        style={{ objectFit: 'contain', flex: 'none' }}
      />
      <TextInput
        style={{ flex: 1 }}
        label={t(`field.${key}`)}
        description={t(`hint.${key}`)}
        value={values[key]}
        error={errors[key]}
        onChange={(event) => set(key, event.currentTarget.value)}
        data-testid={`brand-${key}`}
      />
      <FileButton
        accept={
          kind === 'logo' ? 'image/svg+xml' : 'image/svg+xml,image/png,image/x-icon,image/vnd.microsoft.icon'
        }
        onChange={(file) => file && void upload.run({ kind, file })}
        disabled={!record}
      >
        {(props) => (
          <Button
            {...props}
            // FileButton's own `disabled` only silences the click; the button must look
            // and be disabled too, or a new brand's upload seems to do nothing.
            disabled={!record}
            mt={20}
            variant="default"
            leftSection={<IconUpload size={16} />}
            loading={upload.pending && upload.variables?.kind === kind}
            data-testid={`brand-upload-${kind}`}
          >
            {t('upload')}
          </Button>
        )}
      </FileButton>
    </Group>
  );

  return (
    <Grid gap="md">
      <Grid.Col span={{ base: 12, lg: 7 }}>
        <form onSubmit={submit} noValidate aria-label={t('form.label')}>
          <Stack gap="md">
            {formError && <Alert color="red">{formError}</Alert>}
            <Section title={t('section.where')}>
              <TextInput
                label={t('field.host')}
                description={t('hint.host')}
                placeholder="rms.example.com"
                value={values.host}
                error={errors.host}
                onChange={(event) => set('host', event.currentTarget.value)}
                data-testid="brand-host"
              />
              <Switch
                label={t('field.default')}
                description={t('hint.default')}
                checked={values.default}
                error={errors.default}
                onChange={(event) => set('default', event.currentTarget.checked)}
                data-testid="brand-default"
              />
            </Section>
            <Section title={t('section.names')}>
              <TextInput {...input('app_name')} required />
              <TextInput {...input('full_app_name')} />
              <TextInput {...input('company_name')} />
              <TextInput {...input('logo_subtext')} />
              <TextInput {...input('title_text')} description={t('hint.title_text')} />
            </Section>
            <Section title={t('section.look')}>
              <ColorInput
                label={t('field.main_color')}
                description={t('hint.main_color')}
                format="hex"
                eyeDropperButtonProps={{ 'aria-label': i18next.t('forms:colour.pick') }}
                value={values.main_color}
                error={errors.main_color}
                onChange={(value) => set('main_color', value)}
                data-testid="brand-main_color"
              />
              <ColorInput
                label={t('field.dark_mode_text_color')}
                description={t('hint.dark_mode_text_color')}
                format="hex"
                eyeDropperButtonProps={{ 'aria-label': i18next.t('forms:colour.pick') }}
                value={values.dark_mode_text_color}
                error={errors.dark_mode_text_color}
                onChange={(value) => set('dark_mode_text_color', value)}
                data-testid="brand-dark_mode_text_color"
              />
              {image('logo', 'logo_vector')}
              {image('favicon', 'favicon')}
              {!record && (
                <Text size="sm" c="dimmed">
                  {t('hint.saveFirst')}
                </Text>
              )}
            </Section>
            <Section title={t('section.buy')}>
              <TextInput {...input('buy_link')} placeholder="https://" />
              <Textarea
                label={t('field.buy_notice')}
                autosize
                minRows={2}
                value={values.buy_notice}
                error={errors.buy_notice}
                onChange={(event) => set('buy_notice', event.currentTarget.value)}
                data-testid="brand-buy_notice"
              />
            </Section>
            <Section title={t('section.devices')}>
              <PairRows
                rows={values.branded_devices}
                onChange={(rows) => set('branded_devices', rows)}
                blank={{ original_model: '', branded_model: '', branded_model_image: '' }}
                addLabel={t('models.add')}
                removeLabel={(i) => t('models.remove', { n: i + 1 })}
                empty={t('models.empty')}
                error={errors.branded_devices}
                testId="brand-models"
                renderRow={(row, i, change) => (
                  <>
                    <Autocomplete
                      style={{ flex: 1 }}
                      aria-label={t('models.original')}
                      placeholder={t('models.original')}
                      data={MODEL_NAMES as string[]}
                      limit={20}
                      value={row.original_model}
                      error={errors[`branded_devices.${i}.original_model`]}
                      onChange={(value) => change({ ...row, original_model: value })}
                    />
                    <TextInput
                      style={{ flex: 1 }}
                      aria-label={t('models.branded')}
                      placeholder={t('models.branded')}
                      value={row.branded_model}
                      error={errors[`branded_devices.${i}.branded_model`]}
                      onChange={(event) => change({ ...row, branded_model: event.currentTarget.value })}
                    />
                    <TextInput
                      style={{ flex: 1 }}
                      aria-label={t('models.image')}
                      placeholder={t('models.image')}
                      value={row.branded_model_image}
                      error={errors[`branded_devices.${i}.branded_model_image`]}
                      onChange={(event) => change({ ...row, branded_model_image: event.currentTarget.value })}
                    />
                    <FileButton
                      accept="image/svg+xml,image/png"
                      onChange={(file) =>
                        file && void upload.run({ kind: 'model', file, model: row.original_model })
                      }
                      disabled={!saved(row.original_model)}
                    >
                      {(props) => (
                        <ActionIcon
                          {...props}
                          disabled={!saved(row.original_model)}
                          variant="default"
                          size={36}
                          aria-label={t('models.upload', { model: row.original_model || i + 1 })}
                          title={saved(row.original_model) ? undefined : t('hint.saveModelFirst')}
                          loading={upload.pending && upload.variables?.model === row.original_model}
                          data-testid="brand-upload-model"
                        >
                          <IconUpload size={16} />
                        </ActionIcon>
                      )}
                    </FileButton>
                  </>
                )}
              />
              <PairRows
                rows={values.branded_device_series}
                onChange={(rows) => set('branded_device_series', rows)}
                blank={{ original: '', branded: '' }}
                addLabel={t('series.add')}
                removeLabel={(i) => t('series.remove', { n: i + 1 })}
                empty={t('series.empty')}
                error={errors.branded_device_series}
                testId="brand-series"
                renderRow={(row, i, change) => (
                  <>
                    <Select
                      style={{ flex: 1 }}
                      aria-label={t('series.original')}
                      placeholder={t('series.original')}
                      data={DEVICE_SERIES.map((s) => ({ value: s, label: s.toUpperCase() }))}
                      value={row.original || null}
                      error={errors[`branded_device_series.${i}.original`]}
                      onChange={(value) => change({ ...row, original: value ?? '' })}
                    />
                    <TextInput
                      style={{ flex: 1 }}
                      aria-label={t('series.branded')}
                      placeholder={t('series.branded')}
                      value={row.branded}
                      error={errors[`branded_device_series.${i}.branded`]}
                      onChange={(event) => change({ ...row, branded: event.currentTarget.value })}
                    />
                  </>
                )}
              />
            </Section>
            <Section title={t('section.routes')}>
              <MultiSelect
                label={t('field.disabled_routes')}
                description={t('hint.disabled_routes')}
                data={routes}
                value={values.disabled_routes}
                error={errors.disabled_routes}
                onChange={(value) => set('disabled_routes', value)}
                searchable
                clearable
                data-testid="brand-disabled_routes"
                comboboxProps={{ withinPortal: true }}
              />
            </Section>
            <Group justify="space-between">
              {record && !record.default ? (
                <Button variant="subtle" color="red" onClick={confirmRemove} loading={remove.pending}>
                  {t('delete.button')}
                </Button>
              ) : (
                <span />
              )}
              <Button type="submit" loading={save.pending} data-testid="brand-save">
                {record ? t('save') : t('create')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 5 }}>
        <Stack gap="xs" style={{ position: 'sticky', top: 72 }}>
          <Title order={3} size="h5">
            {t('preview.title')}
          </Title>
          <BrandPreview brand={values} />
        </Stack>
      </Grid.Col>
    </Grid>
  );
}
