import { sshHostKey } from '@fleetgate/device-sim/services';
import ssh2 from 'ssh2';
import { describe, expect, it } from 'vitest';

describe('the simulated SSH service', () => {
  // ssh2's generator writes about one key in 150 that its own parser refuses: a thousand keys
  // would include several.
  it('always gets a host key its SSH server can read', () => {
    for (let i = 0; i < 1000; i++) expect(ssh2.utils.parseKey(sshHostKey())).not.toBeInstanceOf(Error);
  });
});
