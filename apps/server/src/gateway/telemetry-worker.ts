import { parentPort } from 'node:worker_threads';
import { prepareReports, type ReportBatch } from './telemetry-reports';

/**
 * The telemetry worker's thread (started by telemetry-preparer.ts): each batch of raw
 * reports comes back parsed, checked and encoded.
 */
const port = parentPort;
if (!port) throw new Error('telemetry-worker.ts runs as a worker thread');
port.on('message', ({ id, batch }: { id: number; batch: ReportBatch }) => {
  try {
    port.postMessage({ id, prepared: prepareReports(batch) });
  } catch (error) {
    port.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
