import type { IdResult, Json } from '@fleetgate/shared/schemas/api';
import { type ApprovedDevice, approveDeviceBody } from '@fleetgate/shared/schemas/devices';
import type { ListParams } from '@fleetgate/shared/schemas/list';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { fetchCompanyOptions } from '#src/features/companies/api/companies';
import { api } from '#src/lib/http/client';

export type ApprovedDeviceJson = Json<ApprovedDevice>;
/** What the console sends to approve a serial and MAC (before the shared schema's checks). */
export type ApproveDeviceInput = z.input<typeof approveDeviceBody>;

/** Search, sort and page of the list (GET /devices/authorized). */
export type ApprovedListParams = ListParams;

/** Query keys (CONVENTIONS example 9): every approval change invalidates `approvedKeys.all`. */
export const approvedKeys = {
  all: ['approved-devices'] as const,
  list: (params: ApprovedListParams) => [...approvedKeys.all, 'list', params] as const,
  companies: ['approved-devices', 'companies'] as const,
};

const empty = (value: unknown) => value === '' || value === null || value === undefined;

/**
 * The console's check of a new approval: the shared contract, with the company required.
 * The API accepts an approval without a company, but such a device is refused on first
 * contact and an approval cannot be edited, so the console never makes one.
 */
export const approvalSchema = approveDeviceBody.extend({
  company_id: z.preprocess(
    (value) => (empty(value) ? undefined : Number(value)),
    approveDeviceBody.shape.company_id.unwrap(),
  ),
});

export function useApprovedDevices(params: ApprovedListParams) {
  return useQuery({
    queryKey: approvedKeys.list(params),
    queryFn: async () => {
      const response = await api.get<ApprovedDeviceJson[]>('/devices/authorized', { query: params });
      return { rows: response.data, total: Number(response.meta?.total ?? response.data.length) };
    },
    placeholderData: keepPreviousData,
  });
}

/** The companies an approval may go to (product §7 selector list: the first 100 by name). */
export function useCompanyChoices() {
  return useQuery({ queryKey: approvedKeys.companies, queryFn: () => fetchCompanyOptions() });
}

export const approvedDeviceActions = {
  /** Survives route changes: an import under way goes on in its window while the operator moves on. */
  approve: (body: ApproveDeviceInput) =>
    api.post<IdResult>('/devices/authorized', body, { keepOnRouteChange: true }),
  remove: (id: number) => api.delete<IdResult>(`/devices/authorized/${id}`),
};
