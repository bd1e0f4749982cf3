import type { Json } from '@fleetgate/shared/schemas/api';
import type { ConnectionAttempt } from '@fleetgate/shared/schemas/device-data';
import type { DeviceCredit } from '@fleetgate/shared/schemas/devices';
import type { DeviceService, Movement } from '@fleetgate/shared/schemas/resources';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '#src/lib/http/client';
import { deviceKeys } from './devices';

// The catalogue and a company's balances are the resources feature's reads.
export {
  type CompanyBalancesJson,
  fetchResourceTypes,
  type ResourceTypeJson,
  useCompanyBalances,
  useResourceTypes,
} from '#src/features/resources/api/resources';

/** The server's types as the console receives them (dates as ISO strings). */
export type DeviceServiceJson = Json<DeviceService>;
export type ServiceMovementJson = Json<Movement>;
export type ConnectionAttemptJson = Json<ConnectionAttempt>;

/**
 * Query keys of a device's service (product §2 device.services). Everything a service change
 * touches sits under `serviceKeys.all`, so a form, whose invalidation cannot name the device,
 * refreshes it in one key.
 */
export const serviceKeys = {
  all: [...deviceKeys.all, 'services'] as const,
  service: (deviceId: number) => [...serviceKeys.all, deviceId] as const,
  history: (deviceId: number, page: number, pageSize: number) =>
    [...serviceKeys.service(deviceId), 'history', page, pageSize] as const,
  attempts: (deviceId: number, page: number, pageSize: number) =>
    [...deviceKeys.detail(deviceId), 'attempts', page, pageSize] as const,
};

/**
 * The movements that are a device's service: activations, the sweeper's renewals, and what
 * 'move device resources' took from or brought to it (a credit's days, a data pack).
 */
export const SERVICE_ACTIONS = ['activate', 'renew', 'move_days', 'move_pack'] as const;

/** GET /devices/{id}/services: on or off, until when, from what, whether it renews. */
export function useDeviceService(deviceId: number, enabled = true) {
  return useQuery({
    queryKey: serviceKeys.service(deviceId),
    queryFn: async () => (await api.get<DeviceServiceJson>(`/devices/${deviceId}/services`)).data,
    enabled: enabled && Number.isInteger(deviceId) && deviceId > 0,
  });
}

/** The device's activations and renewals, newest first (GET /credits?device_id=, view_credits). */
export function useServiceHistory(deviceId: number, page: number, pageSize: number, enabled: boolean) {
  return useQuery({
    queryKey: serviceKeys.history(deviceId, page, pageSize),
    queryFn: async () => {
      const response = await api.get<ServiceMovementJson[]>('/credits', {
        query: {
          device_id: deviceId,
          action: SERVICE_ACTIONS,
          limit: pageSize,
          offset: (page - 1) * pageSize,
        },
      });
      return { rows: response.data, total: Number(response.meta?.total ?? response.data.length) };
    },
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** The device's connection attempts, newest first (product §8 codes: 15 is a device without a service). */
export function useConnectionAttempts(deviceId: number, page: number, pageSize: number, refreshMs: number) {
  return useQuery({
    queryKey: serviceKeys.attempts(deviceId, page, pageSize),
    queryFn: async () => {
      const response = await api.get<ConnectionAttemptJson[]>(`/devices/${deviceId}/connection-attempts`, {
        query: { limit: pageSize, offset: (page - 1) * pageSize },
      });
      return { rows: response.data, total: Number(response.meta?.total ?? response.data.length) };
    },
    placeholderData: keepPreviousData,
    refetchInterval: refreshMs,
  });
}

/** The calls that change a device's service outside the 'manage services' form. */
export const serviceActions = {
  setAutoRenew: (deviceId: number, autoRenew: boolean) =>
    api.put<DeviceServiceJson>(`/devices/${deviceId}/services`, { auto_renew: autoRenew }),
  /** Off ends the device's session at once (code 15 from then on); on needs a period left. */
  setActive: (deviceId: number, active: boolean) =>
    api.put<Json<DeviceCredit>>(`/devices/${deviceId}/credit`, { active }),
};
