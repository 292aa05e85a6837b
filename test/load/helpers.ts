import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Concurrent clients × operations per client: the shape of every load test (20 × 50 = 1000 operations). */
export const CLIENTS = 20;
export const OPERATIONS = 50;

/** A real collection: `gc` exposed at run time (no --expose-gc flag needed on the vitest command line). */
setFlagsFromString("--expose_gc");
const gc = runInNewContext("gc") as () => void;

/** heapUsed after full collections (a few, with turns of the event loop between them so closed sockets go). */
export async function settledHeap(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  return process.memoryUsage().heapUsed;
}

/** Run `clients` workers concurrently, each doing its operations in order. */
export async function runClients<T>(clients: number, worker: (client: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: clients }, (_, c) => worker(c)));
}

/** Memory has settled: what the run left behind after collection stays within a generous bound. */
export const SETTLED_BOUND_BYTES = 48 * 1024 * 1024;
