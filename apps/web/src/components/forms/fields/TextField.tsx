import { ActionIcon, PasswordInput, Textarea, TextInput, Tooltip } from '@mantine/core';
import { IconWand } from '@tabler/icons-react';
import type { ClipboardEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { applyMask } from '#src/lib/forms/masks';
import { generatePassword } from '#src/lib/forms/password';
import { pasteWithin } from '#src/lib/forms/text';
import type { FieldDef } from '#src/lib/forms/types';

type Props = {
  field: FieldDef;
  value: string;
  onChange(value: string): void;
  onBlur(): void;
  common: {
    label: ReactNode;
    description?: ReactNode;
    placeholder?: string;
    error?: ReactNode;
    required?: boolean;
    disabled?: boolean;
    name: string;
    'data-autofocus'?: boolean;
  };
  addon?: string;
};

/**
 * Text, e-mail, password and long text (product §5): masks, paste cut to maxlength, text
 * trimmed when leaving the field, and 'Generate' for passwords (16 characters, product §9).
 */
export function TextField({ field, value, onChange, onBlur, common, addon }: Props) {
  const { t } = useTranslation('forms');
  const fit = (text: string) => {
    const masked = field.mask ? applyMask(text, field.mask) : text;
    return field.maxlength === undefined ? masked : masked.slice(0, field.maxlength);
  };

  function paste(event: ClipboardEvent<HTMLInputElement | HTMLTextAreaElement>) {
    const target = event.currentTarget;
    const pasted = event.clipboardData.getData('text');
    event.preventDefault();
    const result = pasteWithin(
      target.value,
      pasted,
      target.selectionStart ?? target.value.length,
      target.selectionEnd ?? target.value.length,
      field.maxlength,
    );
    const next = fit(result.value);
    onChange(next);
    requestAnimationFrame(() => {
      const caret = Math.min(result.caret, next.length);
      target.setSelectionRange(caret, caret);
    });
  }

  const trimOnBlur = () => {
    if (field.type !== 'password' && value !== value.trim()) onChange(value.trim());
    onBlur();
  };

  const shared = {
    ...common,
    value,
    onChange: (event: { currentTarget: { value: string } }) => onChange(fit(event.currentTarget.value)),
    onBlur: trimOnBlur,
    onPaste: paste,
    maxLength: field.maxlength,
    minLength: field.minlength,
  };

  if (field.type === 'textarea') return <Textarea {...shared} autosize minRows={3} maxRows={12} />;
  if (field.type === 'password') {
    return (
      <PasswordInput
        {...shared}
        autoComplete="new-password"
        leftSectionPointerEvents="all"
        leftSection={
          field.generate ? (
            <Tooltip label={t('field.generate')}>
              <ActionIcon
                variant="subtle"
                aria-label={t('field.generate')}
                onClick={() => onChange(generatePassword())}
              >
                <IconWand size={16} />
              </ActionIcon>
            </Tooltip>
          ) : undefined
        }
      />
    );
  }
  return (
    <TextInput
      {...shared}
      type={field.type === 'email' ? 'email' : 'text'}
      pattern={field.pattern}
      rightSection={addon}
      rightSectionWidth={addon ? Math.max(40, addon.length * 8 + 16) : undefined}
    />
  );
}
