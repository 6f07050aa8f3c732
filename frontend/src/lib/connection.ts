// Pure rules of the connection banner.

/** Milliseconds before the next probe: 1 s, 2 s, 4 s … at most 15 s. */
export function retryDelay(attempts: number): number {
  return Math.min(1000 * 2 ** Math.max(0, attempts), 15000);
}
