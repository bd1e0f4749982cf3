import { useTranslation } from 'react-i18next';
import classes from '#src/components/table/cells.module.css';
import { statusLook } from '../utils/status';

/**
 * A device's connection status with the spec's texts (product §4): Mantine's light badge in
 * the status's theme colour, as a plain element. `label` translates in the devices namespace:
 * the table draws one per row with its own, so that no row asks i18next for a translator.
 */
export function statusBadge(label: (key: string) => string, status: number | null | undefined) {
  const look = statusLook(status);
  // The colour is a rule of cells.module.css per status colour, not an inline style.
  return (
    <span
      className={classes.badge}
      data-color={look.color}
      data-testid="device-status"
      data-status={status ?? ''}
    >
      {label(`status.${look.key}`)}
    </span>
  );
}

/** The status badge where one shows alone (the device page). */
export function StatusBadge({ status }: { status: number | null | undefined }) {
  const { t } = useTranslation('devices');
  return statusBadge(t, status);
}
