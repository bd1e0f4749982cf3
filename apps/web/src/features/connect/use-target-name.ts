import { useEffect, useState } from 'react';
import { api } from '#src/lib/http/client';
import type { TerminalTarget } from './terminal/terminal-socket';

/** What the header names: the device, and the entry when one was opened. */
export function useTargetName(target: TerminalTarget) {
  const [name, setName] = useState<string>();
  useEffect(() => {
    const load =
      'key' in target
        ? api
            .get<{ device_name: string; entry_name: string }>(
              `/remote/share/${encodeURIComponent(target.key)}`,
            )
            .then((r) => `${r.data.device_name} · ${r.data.entry_name}`)
        : 'entry_id' in target
          ? api
              .get<{ name: string; device_name: string }>(`/devices/remote-access/${target.entry_id}`)
              .then((r) => `${r.data.device_name} · ${r.data.name}`)
          : api.get<{ name: string }>(`/devices/${target.device_id}`).then((r) => r.data.name);
    load.then(setName, () => setName(undefined));
  }, [target]);
  return name;
}
