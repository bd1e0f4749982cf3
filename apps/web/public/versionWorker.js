// Reports the version of the console the server holds now (spec §7 General, §4 update
// prompt): { version, timestamp } at start and then every five minutes.
const INTERVAL_MS = 5 * 60 * 1000;

async function report() {
  try {
    const response = await fetch('/version.json', { cache: 'no-store' });
    if (!response.ok) return;
    const { version, timestamp } = await response.json();
    if (typeof version === 'string' && typeof timestamp === 'number') postMessage({ version, timestamp });
  } catch {
    // Offline or restarting: try again at the next tick.
  }
}

report();
setInterval(report, INTERVAL_MS);
