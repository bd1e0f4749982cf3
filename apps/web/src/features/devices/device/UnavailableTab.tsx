import { UnavailablePanel } from '#src/components/page/UnavailablePanel';
import type { PageProps } from '#src/lib/routing/page';
import { DeviceFrame } from './DeviceFrame';

/** A device tab whose screen does not exist yet: the device's header, status and actions over a plain panel. */
export function UnavailableTab({ chain, params }: PageProps) {
  return (
    <DeviceFrame chain={chain} params={params}>
      {() => <UnavailablePanel tab />}
    </DeviceFrame>
  );
}
