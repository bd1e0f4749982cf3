import type { StateMessage } from '@fleetgate/shared/devices/messages';

/** What the shell can see of its device. */
export type ShellDevice = {
  serial: string;
  mac: string;
  model: string;
  firmware: string;
  hostname: string;
  uptimeSeconds: number;
  state: StateMessage | undefined;
};

export type ShellResult = { output: string; exitCode: number };

function formatUptime(seconds: number): string {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return `${d} days, ${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

type Command = (args: string[], device: ShellDevice) => ShellResult;

const ok = (output: string): ShellResult => ({
  output: output.endsWith('\n') ? output : `${output}\n`,
  exitCode: 0,
});

const COMMANDS: Record<string, Command> = {
  help: () =>
    ok('Built-in commands: cat date df echo free gsmctl help hostname ifconfig ip ping uname uptime ubus\n'),
  echo: (args) => ok(args.join(' ')),
  hostname: (_a, d) => ok(d.hostname),
  date: () => ok(new Date().toUTCString()),
  uname: (args, d) =>
    ok(
      args.includes('-a')
        ? `Linux ${d.hostname} 5.4.259 #0 SMP PREEMPT armv7l GNU/Linux (${d.model})`
        : 'Linux',
    ),
  uptime: (_a, d) =>
    ok(
      ` ${new Date().toISOString().slice(11, 19)} up ${formatUptime(d.uptimeSeconds)},  load average: 0.08, 0.12, 0.10`,
    ),
  free: () =>
    ok(
      '              total        used        free      shared  buff/cache   available\nMem:         245760      110592       71680        1024       63488      121856',
    ),
  df: () =>
    ok(
      'Filesystem           1K-blocks      Used Available Use% Mounted on\n/dev/root                15360     15360         0 100% /rom\noverlayfs:/overlay       86016      4312     81704   5% /',
    ),
  cat: (args, d) => {
    if (args[0] === '/etc/version') return ok(d.firmware);
    if (args[0] === '/sys/class/net/eth0/address') return ok(d.mac.toLowerCase());
    return { output: `cat: can't open '${args[0] ?? ''}': No such file or directory\n`, exitCode: 1 };
  },
  gsmctl: (args, d) => {
    const s = d.state;
    if (s?.signal === undefined) return { output: 'gsmctl: no modem found\n', exitCode: 1 };
    if (args.includes('-q'))
      return ok(`RSSI: ${s.signal}\nRSRP: ${s.rsrp ?? ''}\nRSRQ: ${s.rsrq ?? ''}\nSINR: ${s.sinr ?? ''}`);
    if (args.includes('-o')) return ok(s.operator ?? 'unknown');
    if (args.includes('-t')) return ok(s.network_type ?? 'unknown');
    if (args.includes('-c'))
      return ok(String(s.temperature !== undefined ? Math.round(s.temperature * 10) : ''));
    return ok('Usage: gsmctl [-q signal] [-o operator] [-t network type] [-c temperature]');
  },
  ifconfig: (_a, d) =>
    ok(
      `br-lan    Link encap:Ethernet  HWaddr ${d.mac}\n          inet addr:192.168.1.1  Bcast:192.168.1.255  Mask:255.255.255.0\n` +
        (d.state?.wan?.ip
          ? `wwan0     Link encap:UNSPEC\n          inet addr:${d.state.wan.ip}  Mask:255.255.255.252\n`
          : ''),
    ),
  ip: (args, d) => (args[0] === 'addr' || args[0] === 'a' ? COMMANDS.ifconfig!([], d) : ok('Usage: ip addr')),
  ping: (args) => {
    const host = args.find((a) => !a.startsWith('-')) ?? '';
    if (!host) return { output: 'BusyBox ping: missing host\n', exitCode: 1 };
    const lines = [0, 1, 2].map(
      (i) => `64 bytes from ${host}: seq=${i} ttl=56 time=${(28 + i * 3.1).toFixed(3)} ms`,
    );
    return ok(
      `PING ${host}: 56 data bytes\n${lines.join('\n')}\n\n--- ${host} ping statistics ---\n3 packets transmitted, 3 packets received, 0% packet loss`,
    );
  },
  ubus: (args, d) =>
    args.join(' ') === 'call system board'
      ? ok(
          JSON.stringify({ hostname: d.hostname, model: d.model, release: { version: d.firmware } }, null, 1),
        )
      : ok('Usage: ubus call system board'),
};

/**
 * A tiny fake shell for the CLI action: a few BusyBox-like commands that
 * answer from the simulated device's state. Pipes and redirections are not supported.
 */
export function runShell(line: string, device: ShellDevice): ShellResult {
  const words = line.trim().split(/\s+/).filter(Boolean);
  const [name, ...args] = words;
  if (!name) return { output: '', exitCode: 0 };
  if (/[|<>;&`$]/.test(line))
    return { output: 'sh: pipes, redirections and substitutions are not supported here\n', exitCode: 2 };
  const command = COMMANDS[name];
  if (!command) return { output: `sh: ${name}: not found\n`, exitCode: 127 };
  return command(args, device);
}
