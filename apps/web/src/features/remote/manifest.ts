import i18next from 'i18next';
import { loaderWith } from '#src/i18n/i18n';
import { defineFeature } from '#src/lib/define-feature';
import { dialog } from '#src/lib/dialogs/registry';

/** Every screen and form of the feature brings its texts (the 'remote' namespace) with it. */
const load = loaderWith('remote');
const forms = () => load(() => import('./forms/remote-forms'));

/**
 * Remote access (product §2 remote.access, service.connect-history, device.access; the 'add
 * remote' dialog): the remote entries, the access history and a device's access tab. The
 * console itself is a connect screen (features/connect).
 */
export const remoteFeature = defineFeature({
  pages: {
    'remote.access': () => load(() => import('./RemoteAccessPage')).then((m) => m.RemoteAccessPage),
    'remote.info': () => load(() => import('./RemoteInfoPage')).then((m) => m.RemoteInfoPage),
    'service.connect-history': () =>
      load(() => import('./AccessHistoryPage')).then((m) => m.AccessHistoryPage),
    'device.access': () => load(() => import('./DeviceAccessTab')).then((m) => m.DeviceAccessTab),
  },
  dialogs: {
    remoteReplay: dialog(() => load(() => import('./dialogs/ReplayDialog')).then((m) => m.ReplayDialog), {
      title: () => i18next.t('remote:replay.title'),
      size: 'lg',
    }),
  },
  forms: {
    addRemote: () => forms().then((m) => m.addRemoteForm()),
  },
});
