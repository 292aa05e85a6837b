/**
 * Lazy stand-ins for web Request and Response objects (NodeRequest in node.ts, KnownBodyResponse in known-body.ts):
 * a class answers the cheap parts itself and builds the real object, its `real`, only when asked for anything else.
 * Web APIs only.
 */

/**
 * Give `standIn` every method and getter of `web` that it does not define itself (nor lists in `ownFields`, the
 * instance fields it sets in its constructor), each answered by `this.real`; then make it inherit from `web`, so
 * `instanceof` holds.
 */
export function answerTheRestFromReal(standIn: object, web: object, ownFields: readonly string[] = []): void {
  for (const name of Object.getOwnPropertyNames(web)) {
    if (name === "constructor" || Object.hasOwn(standIn, name) || ownFields.includes(name)) continue;
    const d = Object.getOwnPropertyDescriptor(web, name)!;
    if (typeof d.value === "function") {
      Object.defineProperty(standIn, name, {
        configurable: true,
        writable: true,
        value(this: { real: Record<string, (...a: unknown[]) => unknown> }, ...args: unknown[]) {
          return this.real[name]!(...args);
        },
      });
    } else if (d.get) {
      Object.defineProperty(standIn, name, {
        configurable: true,
        get(this: { real: Record<string, unknown> }) {
          return this.real[name];
        },
      });
    }
  }
  Object.setPrototypeOf(standIn, web);
}
