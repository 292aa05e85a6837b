import { ConnectError } from "./error.js";

/**
 * Run `work` with a signal that aborts when the client goes away or `timeoutMs` passes, and stop waiting for it at
 * that moment: a timed-out call answers `deadline_exceeded` even if the implementation ignores its signal.
 */
export async function withDeadline<T>(
  clientSignal: AbortSignal,
  timeoutMs: number | undefined,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  if (timeoutMs === undefined) return work(clientSignal);
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([clientSignal, timeout]);
  let onTimeout: (() => void) | undefined;
  const expired = new Promise<never>((_, reject) => {
    onTimeout = () => reject(new ConnectError("deadline_exceeded", `deadline of ${timeoutMs} ms exceeded`));
    timeout.addEventListener("abort", onTimeout, { once: true });
  });
  try {
    return await Promise.race([work(signal), expired]);
  } finally {
    timeout.removeEventListener("abort", onTimeout!);
  }
}
