import { Button, CloseButton, Group, Input, Paper, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { type DragEvent, type ReactNode, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkFile, type FileError, filterDropped, formatBytes } from '#src/lib/forms/file-rules';
import type { FieldDef } from '#src/lib/forms/types';

type Props = {
  field: FieldDef;
  label: ReactNode;
  description?: ReactNode;
  required?: boolean;
  disabled?: boolean;
  error?: ReactNode;
  value: File | null;
  onChange(file: File | null): void;
};

/**
 * The file input of product §5: chosen or dropped (drops filtered by the accept types that
 * contain a slash), at most 80 MB unless said, no forbidden symbols or spaces in the name.
 */
export function FileField({ field, label, description, required, disabled, error, value, onChange }: Props) {
  const { t } = useTranslation('forms');
  const inputRef = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [over, setOver] = useState(false);

  const describe = (e: FileError) =>
    e.code === 'size' ? t('file.tooLarge', { size: e.size }) : t(`file.${e.code}`);

  function take(file: File | undefined) {
    if (!file) return;
    const refused = checkFile(file, {
      ...(field.maxSize ? { maxSize: field.maxSize } : {}),
      ...(field.allowSpaces ? { allowSpaces: true } : {}),
    });
    setProblem(refused ? describe(refused) : null);
    onChange(refused ? null : file);
  }

  function drop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setOver(false);
    if (disabled) return;
    const files = filterDropped([...event.dataTransfer.files], field.accept);
    if (files.length === 0) return setProblem(t('file.wrongType'));
    take(files[0]);
  }

  return (
    <Input.Wrapper label={label} description={description} required={required} error={problem ?? error}>
      <Paper
        withBorder
        p="sm"
        mt={4}
        style={{ borderStyle: 'dashed', borderColor: over ? 'var(--mantine-color-blue-5)' : undefined }}
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
        data-testid={`file-${field.key}`}
      >
        <Group justify="space-between" wrap="nowrap">
          {value ? (
            <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
              <Text size="sm" truncate>
                {value.name}
              </Text>
              <Text size="xs" c="dimmed">
                {formatBytes(value.size)}
              </Text>
              <CloseButton
                size="sm"
                aria-label={t('file.remove')}
                onClick={() => onChange(null)}
                disabled={disabled}
              />
            </Group>
          ) : (
            <Text size="sm" c="dimmed">
              {t('file.drop')}
            </Text>
          )}
          <Button
            variant="default"
            size="xs"
            leftSection={<IconUpload size={14} />}
            onClick={() => inputRef.current?.click()}
            disabled={disabled}
          >
            {t('file.choose')}
          </Button>
        </Group>
        <input
          ref={inputRef}
          type="file"
          name={field.key}
          accept={field.accept}
          hidden
          onChange={(event) => {
            take(event.currentTarget.files?.[0]);
            event.currentTarget.value = '';
          }}
        />
      </Paper>
    </Input.Wrapper>
  );
}
