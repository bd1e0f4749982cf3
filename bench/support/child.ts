import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

type Message = { type: string };

/**
 * A helper process (load generators, the simulator) driven over IPC, so what it costs in
 * CPU and memory is not counted against the process being measured.
 */
export class Child<In extends Message, Out extends Message> {
  private readonly process: ChildProcess;
  private readonly exited: Promise<never>;

  constructor(script: URL, nodeArgs: string[] = []) {
    this.process = fork(fileURLToPath(script), [], {
      execArgv: ['--import', 'tsx', ...nodeArgs],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.exited = new Promise((_, reject) =>
      this.process.once('exit', (code) => reject(new Error(`${script.pathname} exited (${code})`))),
    );
    this.exited.catch(() => {});
  }

  /** Sends a message and waits for the child's answer of `type`. */
  request<T extends Out['type']>(message: In, type: T): Promise<Extract<Out, { type: T }>> {
    const answer = new Promise<Extract<Out, { type: T }>>((resolve) => {
      const listen = (m: Out) => {
        if (m.type !== type) return;
        this.process.off('message', listen);
        resolve(m as Extract<Out, { type: T }>);
      };
      this.process.on('message', listen);
    });
    this.process.send(message);
    return Promise.race([answer, this.exited]);
  }

  /** Ends the child (it is told to stop first; killed if it has not exited after 10 s). */
  async close(): Promise<void> {
    if (this.process.exitCode !== null) return;
    const gone = new Promise<void>((resolve) => this.process.once('exit', () => resolve()));
    const timer = setTimeout(() => this.process.kill('SIGKILL'), 10_000);
    this.process.kill('SIGTERM');
    await gone;
    clearTimeout(timer);
  }
}

/** The child's side: one handler for every message from the parent. */
export function serveParent<In extends Message, Out extends Message>(
  handle: (message: In, reply: (answer: Out) => void) => Promise<void> | void,
): void {
  const reply = (answer: Out) => process.send?.(answer);
  process.on('message', (message: In) => {
    Promise.resolve(handle(message, reply)).catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
  });
  process.once('SIGTERM', () => process.exit(0));
  process.once('disconnect', () => process.exit(0));
}
