import { Button, Code, Group, Progress, Select, Stack, Text } from '@mantine/core';
import { IconPlayerStop, IconUpload } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FileField } from '#src/components/forms/fields/FileField';
import { useWindow } from '#src/lib/dialogs/window-context';
import { formatBytes } from '#src/lib/forms/file-rules';
import type { FieldDef } from '#src/lib/forms/types';
import { useAction } from '#src/lib/http/use-action';
import { approvedDeviceActions, approvedKeys, useCompanyChoices } from '../api/approved-devices';
import {
  type FileProblem,
  IMPORT_COLUMNS,
  IMPORT_LIMITS,
  type ImportResult,
  type ImportRow,
  readImportFile,
  runImport,
  summarize,
} from '../utils/import-rows';
import { ImportResults } from './ImportResults';

const FILE_FIELD: FieldDef = {
  key: 'file',
  label: 'import.file',
  type: 'file',
  accept: '.csv,text/csv',
  maxSize: IMPORT_LIMITS.maxBytes,
  // The file is read here, never stored: its name only has to say what it is.
  allowSpaces: true,
};

const EXAMPLE = `${IMPORT_COLUMNS.join(',')}\nRUTX1100123,00:1E:42:12:34:56,12,Delivery 42`;

const isCsv = (file: File) => /\.csv$/i.test(file.name) || file.type === 'text/csv';

type Chosen = { rows: ImportRow[] };

/**
 * 'Import CSV' of approved devices: the file is read in the browser, each row checked as the
 * add form checks it and sent on its own (POST /devices/authorized), and every row's outcome
 * listed. The window may be minimised while it runs; closing it stops after the current row.
 */
export function ImportApprovedDevicesDialog() {
  const { t } = useTranslation('approved-devices');
  const window = useWindow();
  const companies = useCompanyChoices();
  const [file, setFile] = useState<File | null>(null);
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [company, setCompany] = useState<string | null>(null);
  const [results, setResults] = useState<ImportResult[] | null>(null);
  const stop = useRef<AbortController | null>(null);

  // Closing the window stops the import after the row under way (the rest stays unsent).
  useEffect(() => () => stop.current?.abort(), []);

  const importing = useAction({
    call: ({ rows, fallbackCompany }: { rows: readonly ImportRow[]; fallbackCompany: string | null }) => {
      const controller = new AbortController();
      stop.current = controller;
      return runImport(rows, approvedDeviceActions.approve, {
        fallbackCompany,
        signal: controller.signal,
        onProgress: setResults,
      });
    },
    failure: { verb: 'import', item: 'approved devices' },
    invalidate: [approvedKeys.all],
    // Only a complete import is a success; otherwise the summary in the window says what is left.
    success: (done) => (summarize(done).approved === done.length ? t('import.done') : null),
    ownWords: true,
    onSuccess: (done) => setResults(done),
  });
  const running = importing.pending;

  function describe(found: FileProblem): string {
    return t(`problem.${found.code}`, found);
  }

  async function choose(next: File | null) {
    setFile(next);
    setChosen(null);
    setProblem(null);
    setResults(null);
    if (!next) return;
    if (!isCsv(next)) return setProblem(t('problem.notCsv'));
    let text: string;
    try {
      text = await next.text();
    } catch {
      return setProblem(t('problem.unreadable'));
    }
    const read = readImportFile(text);
    if ('problem' in read) return setProblem(describe(read.problem));
    setChosen({ rows: read.rows });
  }

  const sent = results?.length ?? 0;
  const total = chosen?.rows.length ?? 0;

  return (
    <Stack gap="sm" data-testid="import-approved">
      <Text size="sm">
        {t('import.help', { max: IMPORT_LIMITS.maxRows, size: formatBytes(IMPORT_LIMITS.maxBytes) })}
      </Text>
      <Code block>{EXAMPLE}</Code>
      <FileField
        field={FILE_FIELD}
        label={t('import.file')}
        required
        disabled={running}
        value={file}
        onChange={(next) => void choose(next)}
        {...(problem ? { error: problem } : {})}
      />
      {chosen && !results && (
        <Text size="sm" data-testid="import-ready">
          {t('import.ready', { count: chosen.rows.length })}
        </Text>
      )}
      <Select
        label={t('import.company')}
        description={t('import.companyHint')}
        placeholder={t('import.companyPlaceholder')}
        data={companies.data ?? []}
        value={company}
        onChange={setCompany}
        searchable
        clearable
        disabled={running}
        nothingFoundMessage={t('import.noCompanies')}
        comboboxProps={{ withinPortal: true }}
        data-testid="import-company"
      />
      {running && (
        <Stack gap={4}>
          <Progress value={total ? (sent / total) * 100 : 0} aria-label={t('import.progressLabel')} />
          <Text size="sm" c="dimmed" data-testid="import-progress">
            {t('import.progress', { done: sent, total })}
          </Text>
        </Stack>
      )}
      {results && <ImportResults results={results} running={running} />}
      <Group justify="flex-end">
        <Button variant="default" onClick={() => window?.close()}>
          {t('import.close')}
        </Button>
        {running ? (
          <Button
            color="red"
            variant="light"
            leftSection={<IconPlayerStop size={16} />}
            onClick={() => stop.current?.abort()}
            data-testid="import-stop"
          >
            {t('import.stop')}
          </Button>
        ) : (
          <Button
            leftSection={<IconUpload size={16} />}
            disabled={!chosen || results !== null}
            onClick={() => chosen && void importing.run({ rows: chosen.rows, fallbackCompany: company })}
            data-testid="import-start"
          >
            {t('import.start')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
