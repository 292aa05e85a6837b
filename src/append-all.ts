/**
 * Append `items` to `target` in place. `target.push(...items)` passes every item as an argument, and V8 runs out of
 * stack at somewhere above 100,000 arguments: huge specs (a 100-copy WSDL, a file rewritten whole) reach that.
 */
export function appendAll<T>(target: T[], items: readonly T[]): void {
  for (let i = 0; i < items.length; i++) target.push(items[i]!);
}
