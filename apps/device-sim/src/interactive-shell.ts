import { runShell, type ShellDevice } from './shell';

/** The device an interactive shell runs on. */
export type ShellHost = { shellDevice(): ShellDevice };

/** What an interactive shell talks through: an SSH channel, a telnet connection. */
export type ShellChannel = {
  write(text: string): unknown;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  /** Ends the session with an exit status (SSH sends it; telnet just closes). */
  exit(code: number): void;
  end(): unknown;
};

const prompt = (device: ShellDevice) => `root@${device.hostname}:~# `;

/**
 * An interactive shell over an SSH channel: echoes what is typed, edits the line with
 * backspace, runs each line through the simulator's shell (the same commands as the CLI
 * action), and ends on `exit` or Ctrl-D.
 */
export function interactiveShell(
  channel: ShellChannel,
  device: ShellHost,
  size: { rows: number; cols: number },
) {
  let line = '';
  const write = (text: string) => channel.write(text.replace(/\r?\n/g, '\r\n'));
  const info = device.shellDevice();
  write(`\nFleetgate simulator, ${info.model} ${info.serial}, firmware ${info.firmware}\n\n${prompt(info)}`);
  channel.on('data', (chunk: Buffer) => {
    for (const char of chunk.toString('utf8')) {
      if (char === '\r' || char === '\n') {
        write('\n');
        const command = line.trim();
        line = '';
        if (command === 'exit' || command === 'logout') {
          channel.exit(0);
          channel.end();
          return;
        }
        // `stty size` answers the window the terminal last reported (pty and window-change).
        if (command === 'stty size') write(`${size.rows} ${size.cols}\n`);
        else if (command) write(runShell(command, device.shellDevice()).output);
        write(prompt(device.shellDevice()));
      } else if (char === '\x7f' || char === '\b') {
        if (line.length > 0) {
          line = line.slice(0, -1);
          write('\b \b');
        }
      } else if (char === '\x04') {
        channel.exit(0);
        channel.end();
        return;
      } else if (char === '\x03') {
        line = '';
        write(`^C\n${prompt(device.shellDevice())}`);
      } else if (char >= ' ') {
        line += char;
        write(char);
      }
    }
  });
}
