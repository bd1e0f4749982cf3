import { Alert, Badge, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormView } from '#src/components/forms/FormView';
import { useWindow } from '#src/lib/dialogs/window-context';
import { formWindowId } from '#src/lib/forms/submit';
import type { FieldOption, FormDefinition } from '#src/lib/forms/types';
import { deviceBatchSource } from '../action-source';
import type { ImportRowResult } from '../api/types';
import { addDeviceForm, importDevicesForm } from '../forms/device-forms';
import { text } from '../utils/format';

/**
 * A form definition shown in a named dialog window (the forms engine does the rest). `name`,
 * the device's, names its row in 'Action status' when the form reaches the device.
 */
export function FormDialog({
  definition,
  id,
  name,
}: {
  definition: FormDefinition;
  id?: number | string;
  name?: string;
}) {
  const window = useWindow();
  const key = id === undefined ? undefined : String(id);
  const named = useMemo(
    () =>
      definition.actionStatus && key !== undefined && name
        ? { ...definition, actionStatus: (channel: string) => deviceBatchSource(channel, { [key]: name }) }
        : definition,
    [definition, key, name],
  );
  return (
    <FormView
      definition={named}
      id={key}
      formId={window?.id ?? formWindowId(definition.name, key)}
      onCancel={() => window?.close()}
      onSuccess={() => {
        if (!definition.leaveOpen) window?.close();
      }}
    />
  );
}

/** 'Add device' (product §2): serial + MAC, and the company for users who see several. */
export function AddDeviceDialog({ companies = [] }: { companies?: readonly FieldOption[] }) {
  return <FormDialog definition={addDeviceForm(companies)} />;
}

/** 'Add device from file' (product §2): a CSV upload, then one result per row. */
export function AddDeviceFromFileDialog({ companies = [] }: { companies?: readonly FieldOption[] }) {
  const { t } = useTranslation('devices');
  const window = useWindow();
  const [results, setResults] = useState<ImportRowResult[] | null>(null);
  const definition = importDevicesForm(companies);
  return (
    <Stack>
      <FormView
        definition={definition}
        id={undefined}
        formId={window?.id ?? formWindowId(definition.name, undefined)}
        onCancel={() => window?.close()}
        onSuccess={(response) => setResults(response.data as ImportRowResult[])}
      />
      {results && (
        <Stack gap="xs" data-testid="import-results">
          <Alert color={results.every((r) => r.success) ? 'green' : 'orange'} variant="light">
            {t('import.summary', { ok: results.filter((r) => r.success).length, total: results.length })}
          </Alert>
          <ScrollArea.Autosize mah={300}>
            <Table verticalSpacing={4}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('import.line')}</Table.Th>
                  <Table.Th>{t('column.serial')}</Table.Th>
                  <Table.Th>{t('column.mac')}</Table.Th>
                  <Table.Th>{t('import.result')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {results.map((r) => (
                  <Table.Tr key={r.line} data-testid="import-result" data-success={r.success}>
                    <Table.Td>{r.line}</Table.Td>
                    <Table.Td>{text(r.serial)}</Table.Td>
                    <Table.Td>{text(r.mac)}</Table.Td>
                    <Table.Td>
                      {r.success ? (
                        <Badge color="green" variant="light">
                          {t('import.created')}
                        </Badge>
                      ) : (
                        <Text size="sm" c="red">
                          {r.errors?.map((e) => e.message).join('; ')}
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
        </Stack>
      )}
    </Stack>
  );
}
