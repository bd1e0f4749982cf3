import type { Json } from '@fleetgate/shared/schemas/api';
import type { ListParams } from '@fleetgate/shared/schemas/list';
import type { RemoteEntry, RemoteSession } from '@fleetgate/shared/schemas/remote';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '#src/lib/http/client';
import { fetchPage } from '#src/lib/http/paged';

export type RemoteEntryJson = Json<RemoteEntry>;
export type RemoteSessionJson = Json<RemoteSession>;

/** Query keys (CONVENTIONS example 9): any change of entries or sessions invalidates `remoteKeys.all`. */
export const remoteKeys = {
  all: ['remote'] as const,
  entries: (params: Record<string, unknown>) => [...remoteKeys.all, 'entries', params] as const,
  sessions: (params: Record<string, unknown>) => [...remoteKeys.all, 'sessions', params] as const,
};

export type EntryListParams = ListParams & { device_id?: number };

/** GET /devices/remote-access/{id}: one remote entry (remote.info). */
export function useRemoteEntry(id: number) {
  return useQuery({
    queryKey: [...remoteKeys.all, 'entry', id],
    queryFn: async () => (await api.get<RemoteEntryJson>(`/devices/remote-access/${id}`)).data,
    enabled: Number.isInteger(id) && id > 0,
    retry: false,
  });
}

/** GET /devices/remote-access: remote entries, of one device or all the caller reaches. */
export function useRemoteEntries(params: EntryListParams) {
  return useQuery({
    queryKey: remoteKeys.entries(params),
    queryFn: () => fetchPage<RemoteEntryJson>('/devices/remote-access', params),
    placeholderData: keepPreviousData,
  });
}

export type SessionListParams = ListParams & {
  device_id?: number;
  entry_id?: number;
  active?: 'true' | 'false';
};

/** GET /remote/sessions: the access history; live sessions are read again while shown. */
export function useRemoteSessions(params: SessionListParams) {
  return useQuery({
    queryKey: remoteKeys.sessions(params),
    queryFn: () => fetchPage<RemoteSessionJson>('/remote/sessions', params),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });
}

export const remoteActions = {
  removeEntry: (id: number) => api.delete<{ id: number }>(`/devices/remote-access/${id}`),
  endSession: (id: string) => api.delete<{ id: string }>(`/remote/sessions/${id}`),
};

/** The remote-connect screens (product §2 /rms-connect/*). */
export type ConnectScreenName = 'ssh' | 'telnet' | 'sftp' | 'desktop';

/** Which screen opens an entry of each protocol; the rest open through a port forward or the web UI. */
export const SCREEN_OF: Partial<Record<string, ConnectScreenName>> = {
  ssh: 'ssh',
  telnet: 'telnet',
  sftp: 'sftp',
  vnc: 'desktop',
};

/**
 * Opens a remote-connect screen (product §2 /rms-connect/*) in a window of its own, on a
 * device's own service or a remote entry. `noopener`: that window cannot reach back into this one.
 */
export function openConnect(screen: ConnectScreenName, target: { device_id: number } | { entry_id: number }) {
  const query = 'device_id' in target ? `device_id=${target.device_id}` : `entry_id=${target.entry_id}`;
  window.open(`/rms-connect/${screen}?${query}`, '_blank', 'noopener');
}

/** Opens the SSH console on a device's own SSH or a remote entry. */
export const openConsole = (target: { device_id: number } | { entry_id: number }) =>
  openConnect('ssh', target);

/**
 * Opens a device's web page (product §2 'web UI' dialog) in a window of its own, on the proxy's
 * origin: the server answers a single-use link for this user. The window is opened at once,
 * while the click still counts as the user's, and sent to the link when it arrives; it cannot
 * reach back into the console (`opener` cleared). Answers the failure's words, if any.
 */
export async function openWebPage(
  target: { entry_id: number } | { device_id: number; protocol?: 'http' | 'https' },
): Promise<string | undefined> {
  const page = window.open('about:blank', '_blank');
  if (page) page.opener = null;
  try {
    const link = await api.post<{ url: string }>('/remote/web', target);
    if (page) page.location.href = link.data.url;
    else window.open(link.data.url, '_blank', 'noopener');
    return undefined;
  } catch (error) {
    page?.close();
    return error instanceof Error ? error.message : String(error);
  }
}
