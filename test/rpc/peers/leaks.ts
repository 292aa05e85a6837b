/**
 * Leak checks: after a call ends (or is cut off), the server's streams and handlers must get back to zero. The
 * counts settle asynchronously (an RST_STREAM or a closed socket reaches the server a few event-loop turns later),
 * so a check polls for a bounded time and then reports what it still sees.
 */
import { expect } from "vitest";

export interface LeakCounts {
  /** HTTP/2 streams (or requests) the node adapter has in flight. */
  readonly openStreams: number;
  /** Implementation methods still running. */
  readonly running: number;
}

/** Wait until `counts()` is all zeros (up to `withinMs`), then assert it is. */
export async function expectNoLeaks(counts: () => LeakCounts, withinMs = 5_000): Promise<void> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    const now = counts();
    if (now.openStreams === 0 && now.running === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(counts()).toEqual({ openStreams: 0, running: 0 });
}

/** Wait until `condition()` holds (up to `withinMs`); returns whether it did. */
export async function eventually(condition: () => boolean, withinMs = 5_000): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (!condition() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
  return condition();
}
