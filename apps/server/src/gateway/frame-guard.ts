import { Duplex } from 'node:stream';

/**
 * Reads MQTT fixed headers as bytes arrive and reports a frame whose declared length is
 * over the limit, before the broker buffers it (aedes has no frame limit of its own).
 */
export class FrameLengthMeter {
  private state: 'type' | 'length' | 'body' = 'type';
  private length = 0;
  private multiplier = 1;
  private lengthBytes = 0;
  private remaining = 0;

  constructor(private readonly maxFrame: number) {}

  /** False when the stream must be closed: an oversized frame or a malformed length. */
  feed(chunk: Uint8Array): boolean {
    let i = 0;
    while (i < chunk.length) {
      if (this.state === 'type') {
        i++;
        this.state = 'length';
        this.length = 0;
        this.multiplier = 1;
        this.lengthBytes = 0;
      } else if (this.state === 'length') {
        const byte = chunk[i++]!;
        this.length += (byte & 0x7f) * this.multiplier;
        this.multiplier *= 128;
        this.lengthBytes++;
        if (this.length > this.maxFrame) return false;
        if (byte & 0x80) {
          if (this.lengthBytes >= 4) return false;
        } else {
          this.remaining = this.length;
          this.state = this.remaining > 0 ? 'body' : 'type';
        }
      } else {
        const take = Math.min(this.remaining, chunk.length - i);
        i += take;
        this.remaining -= take;
        if (this.remaining === 0) this.state = 'type';
      }
    }
    return true;
  }
}

/**
 * Wraps a connection (TCP socket or WebSocket stream) so that a frame over `maxFrame`
 * bytes closes it: a hostile client cannot make the broker hold a huge payload.
 */
export class GuardedConnection extends Duplex {
  readonly remoteAddress: string | undefined;
  private readonly meter: FrameLengthMeter;

  constructor(
    private readonly inner: Duplex,
    maxFrame: number,
    remoteAddress: string | undefined,
    onOversized: () => void,
  ) {
    super({ allowHalfOpen: false });
    this.remoteAddress = remoteAddress;
    this.meter = new FrameLengthMeter(maxFrame);
    inner.on('data', (chunk: Buffer) => {
      if (!this.meter.feed(chunk)) {
        onOversized();
        this.destroy();
        return;
      }
      if (!this.push(chunk)) inner.pause();
    });
    inner.on('end', () => this.push(null));
    inner.on('error', (error) => this.destroy(error));
    inner.on('close', () => this.destroy());
  }

  override _read(): void {
    this.inner.resume();
  }

  override _write(chunk: Buffer, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.inner.destroyed) callback();
    else this.inner.write(chunk, encoding, callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.inner.end();
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.inner.destroy();
    callback(error);
  }
}
