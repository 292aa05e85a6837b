/**
 * One AbortSignal for a client call from the caller's own signal and an optional timeout, plus a way to tell the
 * two apart afterwards (a timeout becomes HttpTimeoutError or deadline_exceeded; a caller's abort stays an abort).
 */
export interface CallSignal {
  readonly signal: AbortSignal | undefined;
  /** True when the timeout (not the caller) aborted the call. */
  timedOut(): boolean;
}

export function callSignal(signal: AbortSignal | undefined, timeoutMs: number | undefined): CallSignal {
  if (timeoutMs === undefined) return { signal, timedOut: () => false };
  if (!(timeoutMs >= 0) || !Number.isFinite(timeoutMs)) throw new RangeError(`timeoutMs must be a finite number >= 0, got ${timeoutMs}`);
  const timeout = AbortSignal.timeout(timeoutMs);
  return {
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    timedOut: () => timeout.aborted && !(signal?.aborted ?? false),
  };
}
