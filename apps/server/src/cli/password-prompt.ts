import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

export class PromptCancelled extends Error {
  constructor(message = 'Cancelled: no password was given.') {
    super(message);
    this.name = 'PromptCancelled';
  }
}

/** Reads one line; on a terminal, what is typed is not shown. */
function readLine(input: NodeJS.ReadStream, output: NodeJS.WriteStream, question: string): Promise<string> {
  const terminal = Boolean(input.isTTY);
  if (terminal) output.write(question);
  // Readline echoes into this sink instead of the terminal.
  const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
  const rl = createInterface({ input, output: muted, terminal });
  return new Promise((resolve, reject) => {
    let answered = false;
    rl.once('line', (line) => {
      answered = true;
      rl.close();
      if (terminal) output.write('\n');
      resolve(line);
    });
    rl.once('SIGINT', () => rl.close());
    rl.once('close', () => {
      if (answered) return;
      if (terminal) output.write('\n');
      reject(new PromptCancelled());
    });
  });
}

/**
 * Asks for a new password: twice and hidden on a terminal; otherwise the first line of
 * standard input (`printf '%s\n' "$PASSWORD" | npm run admin -- ... --password`).
 */
export async function askNewPassword(
  input: NodeJS.ReadStream = process.stdin,
  output: NodeJS.WriteStream = process.stderr,
): Promise<string> {
  const password = await readLine(input, output, 'New password: ');
  if (!input.isTTY) return password;
  const again = await readLine(input, output, 'Repeat it: ');
  if (again !== password) throw new PromptCancelled('The two passwords differ; nothing was changed.');
  return password;
}
