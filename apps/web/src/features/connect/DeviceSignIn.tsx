import { Alert, Button, Paper, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Why the last attempt ended, shown above the form: red for a failure, grey for a plain end. */
export type Ended = { reason: string; error?: boolean };

/**
 * Signing in to a device's service (the console, the file browser): a user name (admin by
 * default, as on a router) and a password that goes to the device only and is cleared from
 * the form once sent.
 */
export function DeviceSignIn({
  intro,
  ended,
  again,
  busy,
  onSubmit,
  testId,
}: {
  intro: string;
  ended?: Ended | undefined;
  /** The button says 'Connect again' after a session. */
  again?: boolean;
  busy?: boolean;
  onSubmit(login: { username: string; password: string }): void;
  testId: string;
}) {
  const { t } = useTranslation('connect');
  const [username, setUsername] = useState('admin');
  const [password, setPassword] = useState('');
  return (
    <Paper withBorder p="md" maw={420} w="100%" mx="auto">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit({ username, password });
          setPassword('');
        }}
      >
        <Stack gap="sm">
          {ended && (
            <Alert color={ended.error ? 'red' : 'gray'} role="status" data-testid={`${testId}-ended`}>
              {ended.reason}
            </Alert>
          )}
          <Text size="sm">{intro}</Text>
          <TextInput
            label={t('ssh.username')}
            value={username}
            onChange={(event) => setUsername(event.currentTarget.value)}
            required
            maxLength={64}
            autoComplete="username"
          />
          <PasswordInput
            label={t('ssh.password')}
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            maxLength={256}
            autoComplete="current-password"
            data-autofocus
          />
          <Button type="submit" loading={busy} data-testid={`${testId}-connect`}>
            {again ? t('ssh.reconnect') : t('ssh.connect')}
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
