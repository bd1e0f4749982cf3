import { Button, CloseButton, Group, Input, Pill, Stack, Text } from '@mantine/core';
import { IconFileUpload } from '@tabler/icons-react';
import { type ChangeEvent, type KeyboardEvent, type ReactNode, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  addListValues,
  addTypedItems,
  checkCsvFile,
  csvLines,
  DEFAULT_ADD_KEYS,
  type ListError,
  type ListItem,
  type ListOptions,
  removeLast,
} from '#src/lib/forms/list-input';

type Props = {
  name: string;
  label: ReactNode;
  description?: ReactNode;
  placeholder?: string;
  required?: boolean;
  disabled?: boolean;
  error?: ReactNode;
  /** Server errors of single items, by position (product §8 bulk errors). */
  itemErrors?: Record<number, string>;
  options: ListOptions;
  value: ListItem[];
  onChange(items: ListItem[]): void;
};

/**
 * The list input of product §5: Enter or comma adds an item, blanks and (when configured)
 * duplicates are refused, the maximum count holds, numbers are converted, the browser
 * checks e-mail items, Backspace on an empty input removes the last item, and a CSV file
 * adds its lines (trimmed, blanks skipped).
 */
export function ListInput({
  name,
  label,
  description,
  placeholder,
  required,
  disabled,
  error,
  itemErrors,
  options,
  value,
  onChange,
}: Props) {
  const { t } = useTranslation('forms');
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const csvRef = useRef<HTMLInputElement>(null);
  const addKeys = options.addKeys ?? DEFAULT_ADD_KEYS;

  const describe = (e: ListError) => t(`list.${e.code}`, e);

  function add(typed: string) {
    if (options.type === 'email' && inputRef.current && !inputRef.current.checkValidity()) {
      setProblem(inputRef.current.validationMessage);
      return;
    }
    const result = addTypedItems(value, typed, options);
    if (result.items.length !== value.length) onChange(result.items);
    setText(result.rest);
    setProblem(result.error ? describe(result.error) : null);
  }

  function keyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (addKeys.includes(event.key)) {
      event.preventDefault();
      add(text);
    } else if (event.key === 'Backspace' && text === '' && value.length > 0) {
      event.preventDefault();
      onChange(removeLast(value));
      setProblem(null);
    }
  }

  async function uploadCsv(event: ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    event.currentTarget.value = '';
    if (!file) return;
    const refused = checkCsvFile(file);
    if (refused) return setProblem(t(`list.csv.${refused}`));
    const result = addListValues(value, csvLines(await file.text()), options);
    onChange(result.items);
    setProblem(result.error ? describe(result.error) : null);
  }

  const shownError = problem ?? error;
  return (
    <Input.Wrapper
      label={label}
      description={description}
      required={required}
      error={shownError}
      data-testid={`list-${name}`}
    >
      <Stack gap={6} mt={4}>
        <Pill.Group>
          {value.map((item, index) => (
            <Pill
              // biome-ignore lint/suspicious/noArrayIndexKey: items may repeat (duplicates are allowed unless configured).
              key={`${item}-${index}`}
              withRemoveButton={!disabled}
              onRemove={() => onChange(value.filter((_, i) => i !== index))}
              removeButtonProps={{ 'aria-label': t('list.remove', { item: String(item) }) }}
              c={itemErrors?.[index] ? 'red' : undefined}
              data-testid="list-item"
            >
              {String(item)}
            </Pill>
          ))}
        </Pill.Group>
        <Group gap="xs" wrap="nowrap">
          <Input
            ref={inputRef}
            name={name}
            style={{ flex: 1 }}
            value={text}
            disabled={disabled || (options.maxItems !== undefined && value.length >= options.maxItems)}
            placeholder={placeholder ?? t('list.placeholder')}
            type={options.type === 'email' ? 'email' : 'text'}
            inputMode={options.type === 'number' ? 'decimal' : undefined}
            error={Boolean(shownError)}
            aria-label={typeof label === 'string' ? label : name}
            onChange={(event) => {
              setText(event.currentTarget.value);
              setProblem(null);
            }}
            onKeyDown={keyDown}
            rightSection={
              text ? (
                <CloseButton size="sm" aria-label={t('list.clear')} onClick={() => setText('')} />
              ) : undefined
            }
          />
          {options.showCsvUpload && (
            <>
              <Button
                variant="default"
                leftSection={<IconFileUpload size={16} />}
                onClick={() => csvRef.current?.click()}
                disabled={disabled}
              >
                {t('list.csv.upload')}
              </Button>
              <input
                ref={csvRef}
                type="file"
                accept=".csv,text/csv"
                hidden
                onChange={uploadCsv}
                data-testid={`list-${name}-csv`}
              />
            </>
          )}
        </Group>
        {itemErrors &&
          Object.entries(itemErrors).map(([index, message]) => (
            <Text key={index} size="xs" c="red">
              {t('list.itemError', { item: String(value[Number(index)] ?? Number(index) + 1), message })}
            </Text>
          ))}
        {options.maxItems !== undefined && (
          <Text size="xs" c="dimmed">
            {t('list.count', { n: value.length, max: options.maxItems })}
          </Text>
        )}
      </Stack>
    </Input.Wrapper>
  );
}
