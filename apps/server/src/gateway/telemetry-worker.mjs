// The telemetry worker's entry. A worker thread does not inherit the main thread's
// TypeScript loader (`node --import tsx`), so it registers tsx itself first.
import { register } from 'tsx/esm/api';

register();
await import('./telemetry-worker.ts');
