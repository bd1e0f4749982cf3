import { lazy } from 'react';
import type { PageMap } from './RouteScreen';

/**
 * Screens that draw the tabs of a route whose own screen does not exist yet: a tab without
 * a screen is drawn by the frame of its nearest ancestor listed here (the device's header,
 * status and actions above a 'not available yet' panel), never by a bare page frame.
 */
export const TAB_FRAMES: PageMap = {
  'device.info': lazy(() =>
    import('../../features/devices/device/UnavailableTab').then((m) => ({ default: m.UnavailableTab })),
  ),
};
