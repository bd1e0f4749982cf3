import { ActionIcon, CopyButton, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** A button that copies a transfer code, saying 'Copied' for a moment after. */
export function CopyCode({ code, testId }: { code: string; testId?: string }) {
  const { t } = useTranslation('resources');
  return (
    <CopyButton value={code} timeout={2000}>
      {({ copied, copy }) => {
        const label = copied ? t('code.copied') : t('code.copy');
        return (
          <Tooltip label={label} withArrow>
            <ActionIcon
              variant="subtle"
              color={copied ? 'teal' : 'gray'}
              aria-label={label}
              onClick={copy}
              data-testid={testId}
            >
              {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            </ActionIcon>
          </Tooltip>
        );
      }}
    </CopyButton>
  );
}
