/**
 * Where an encoder was when it failed, for error messages only: the elements still open in the partial output (so
 * nothing is tracked while encoding), mapped onto the value being encoded to turn repeated elements into indexes.
 * `create.sObjects[0].Body` reads: element sObjects of the root value, its first item, then Body.
 */

interface OpenElement {
  readonly local: string;
  /** Position among earlier siblings of the same name. */
  readonly index: number;
  /** Names of the children started so far, with their counts. */
  readonly children: Map<string, number>;
}

/** The chain of elements open at the end of `partial` (well-formed output cut anywhere, as XmlWriter writes it). */
export function openElements(partial: string): OpenElement[] {
  const stack: OpenElement[] = [];
  const top: OpenElement = { local: "", index: 0, children: new Map() };
  for (let i = partial.indexOf("<"); i >= 0; i = partial.indexOf("<", i + 1)) {
    const parent = stack[stack.length - 1] ?? top;
    if (partial.charCodeAt(i + 1) === 0x2f /* / */) {
      stack.pop();
      continue;
    }
    let end = i + 1;
    while (end < partial.length && !/[\s/>]/.test(partial[end]!)) end++;
    const qname = partial.slice(i + 1, end);
    const local = qname.slice(qname.indexOf(":") + 1);
    const index = parent.children.get(local) ?? 0;
    parent.children.set(local, index + 1);
    // Skip the rest of the start tag; attribute values never hold a raw '<' (the writer escapes it), but may hold '>'.
    let quote = 0;
    for (; end < partial.length; end++) {
      const c = partial.charCodeAt(end);
      if (quote !== 0) {
        if (c === quote) quote = 0;
      } else if (c === 0x22 || c === 0x27) quote = c;
      else if (c === 0x3e) break;
    }
    const selfClosing = end < partial.length && partial.charCodeAt(end - 1) === 0x2f;
    if (!selfClosing) stack.push({ local, index, children: new Map() });
    i = Math.min(end, partial.length - 1);
  }
  return stack;
}

/**
 * The path of the failing value: the open elements (indexes where the value holds an array there), then, when the
 * failing value's own element was not started yet (a conversion such as encodeBase64 fails before it is), the
 * property of the innermost value that holds it.
 */
export function encodeLocation(partial: string, root: unknown, bad: unknown, opened: boolean): string {
  const open = openElements(partial);
  if (open.length === 0) return "";
  let path = open[0]!.local;
  let cur: unknown = root;
  for (const el of open.slice(1)) {
    const prop = isObject(cur) ? cur[el.local] : undefined;
    if (Array.isArray(prop)) {
      path += `.${el.local}[${el.index}]`;
      cur = prop[el.index];
    } else {
      path += `.${el.local}${prop === undefined && el.index > 0 ? `[${el.index}]` : ""}`;
      cur = prop;
    }
  }
  if (opened || !isObject(cur)) return path;
  const innermost = open[open.length - 1]!;
  // Prefer a property whose element has not been written yet: that is the one the encoder was about to write.
  const keys = Object.keys(cur).filter((k) => holds(cur[k], bad));
  const key = keys.find((k) => !innermost.children.has(k)) ?? keys[0];
  if (key === undefined) return path;
  const v = cur[key];
  return Array.isArray(v) && v !== bad ? `${path}.${key}[${v.indexOf(bad)}]` : `${path}.${key}`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null;
}

function holds(v: unknown, bad: unknown): boolean {
  return Object.is(v, bad) || (Array.isArray(v) && v !== bad && v.includes(bad));
}
