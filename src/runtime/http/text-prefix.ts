/**
 * At most `maxBytes` of a response body as text, then the rest is cancelled: error bodies are read for their message,
 * and a hostile or broken server must not make a client buffer an unbounded one.
 */
export async function readTextPrefix(response: Response, maxBytes: number): Promise<string> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (total < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value.subarray(0, maxBytes - total));
      total += Math.min(value.byteLength, maxBytes - total);
    }
  } catch {
    // A body that breaks off still gives what arrived.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
