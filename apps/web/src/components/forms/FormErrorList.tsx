import { Alert, List } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** Errors that belong to no field (product §8: a form-level list). */
export function FormErrorList({ errors }: { errors: readonly string[] }) {
  if (errors.length === 0) return null;
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" data-testid="form-errors">
      {errors.length === 1 ? (
        errors[0]
      ) : (
        <List size="sm">
          {errors.map((error) => (
            <List.Item key={error}>{error}</List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
