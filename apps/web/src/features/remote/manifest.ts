import { defineFeature } from '#src/lib/define-feature';

const forms = () => import('./forms/remote-forms');

/**
 * Remote access (product §2 remote.access, service.connect-history, device.access; the 'add
 * remote' dialog): the remote entries, the access history and a device's access tab. The
 * console itself is a connect screen (features/connect).
 */
export const remoteFeature = defineFeature({
  pages: {
    'remote.access': () => import('./RemoteAccessPage').then((m) => m.RemoteAccessPage),
    'service.connect-history': () => import('./AccessHistoryPage').then((m) => m.AccessHistoryPage),
    'device.access': () => import('./DeviceAccessTab').then((m) => m.DeviceAccessTab),
  },
  forms: {
    addRemote: () => forms().then((m) => m.addRemoteForm()),
  },
});
