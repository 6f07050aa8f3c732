// Whether the server answers, as every API call sees it. One banner shows it
// (App.svelte); while the server is away a probe of /api/health retries on a
// growing delay, and views reload themselves on the "lectern:back" event.
import { retryDelay } from './connection';

export const connection = $state({ down: false, retryIn: 0, attempts: 0 });

let timer: ReturnType<typeof setTimeout> | undefined;
let countdown: ReturnType<typeof setInterval> | undefined;

/** Every answer from the server (any status) says it is reachable. */
export function sawAnswer(): void {
  if (!connection.down) return;
  connection.down = false;
  connection.attempts = 0;
  connection.retryIn = 0;
  clearTimeout(timer);
  clearInterval(countdown);
  dispatchEvent(new Event('lectern:back'));
}

/** A request that got no answer at all: the server (or the network) is away. */
export function sawNoAnswer(): void {
  if (connection.down) return;
  connection.down = true;
  schedule();
}

function schedule(): void {
  const wait = retryDelay(connection.attempts);
  connection.retryIn = Math.ceil(wait / 1000);
  clearInterval(countdown);
  countdown = setInterval(() => (connection.retryIn = Math.max(0, connection.retryIn - 1)), 1000);
  clearTimeout(timer);
  timer = setTimeout(probe, wait);
}

/** Asks /api/health now; the banner's "Retry now" calls it too. */
export async function probe(): Promise<void> {
  connection.attempts++;
  try {
    await fetch('api/health', { cache: 'no-store' });
    sawAnswer();
  } catch {
    if (connection.down) schedule();
  }
}
