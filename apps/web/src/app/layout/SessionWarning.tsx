import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { signOut } from '#src/features/account/sign-out';

export type Warning = { kind: 'idle' | 'end'; at: number };

type Props = {
  warning: Warning;
  /** Time left before an idle sign-out, as m:ss. */
  left: string;
  idleMinutes: number;
  onStay(): void;
  onDismissEnd(): void;
};

/** The window of SessionTimeout: an idle sign-out is near, or the sign-in's end. */
export function SessionWarning({ warning, left, idleMinutes, onStay, onDismissEnd }: Props) {
  const { t } = useTranslation('shell');
  const idle = warning.kind === 'idle';
  return (
    <Modal
      opened
      onClose={idle ? onStay : onDismissEnd}
      title={idle ? t('sessionTimeout.idleTitle') : t('sessionTimeout.endTitle')}
      centered
      zIndex={400}
      data-testid="session-timeout"
    >
      <Stack>
        <Text role="alert">
          {idle
            ? t('sessionTimeout.idleBody', { left, minutes: idleMinutes })
            : t('sessionTimeout.endBody', { time: new Date(warning.at).toLocaleTimeString() })}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => void signOut()}>
            {t('nav.signOut')}
          </Button>
          {idle ? (
            <Button onClick={onStay} data-autofocus>
              {t('sessionTimeout.stay')}
            </Button>
          ) : (
            <Button onClick={onDismissEnd} data-autofocus>
              {t('sessionTimeout.ok')}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
