/**
 * The route table of a REST server, compiled once when the server is created: a tree of path segments in which a
 * literal segment is always tried before a parameter, so `/webhooks/count` wins over `/webhooks/{id}` whatever the
 * declaration order. Matching walks the request's segments; no regular expression is built per request.
 */
export interface RestRouteDefinition<T> {
  readonly method: string;
  /** Path template relative to the base path, e.g. "/webhooks/{id}". */
  readonly path: string;
  readonly operation: T;
}

export type RestRouteMatch<T> =
  /** The path and method match; `params` are the raw (percent-decoded) path parameters in template order. */
  | { readonly kind: "found"; readonly operation: T; readonly params: readonly string[] }
  /** The path exists but not for this method; `allow` lists the methods it has. */
  | { readonly kind: "method-not-allowed"; readonly allow: string };

interface RouteNode<T> {
  readonly literals: Map<string, RouteNode<T>>;
  param: RouteNode<T> | undefined;
  readonly methods: Map<string, T>;
  allow: string;
}

const newNode = <T>(): RouteNode<T> => ({ literals: new Map(), param: undefined, methods: new Map(), allow: "" });

/** Split a path template or request path into segments ("/a/b/" -> ["a", "b", ""]). */
function segmentsOf(path: string): string[] {
  return (path.startsWith("/") ? path.slice(1) : path).split("/");
}

const PARAM_SEGMENT = /^\{[^{}]+\}$/;

export function compileRoutes<T>(
  routes: readonly RestRouteDefinition<T>[],
): (method: string, path: string) => RestRouteMatch<T> | undefined {
  const root = newNode<T>();
  for (const route of routes) {
    let node = root;
    for (const segment of segmentsOf(route.path)) {
      if (PARAM_SEGMENT.test(segment)) node = node.param ??= newNode<T>();
      else {
        let next = node.literals.get(segment);
        if (!next) node.literals.set(segment, (next = newNode<T>()));
        node = next;
      }
    }
    const method = route.method.toUpperCase();
    if (node.methods.has(method)) throw new Error(`duplicate route ${method} ${route.path}`);
    node.methods.set(method, route.operation);
    node.allow = [...node.methods.keys()].sort().join(", ");
  }

  return (method, path) => {
    // Segments are compared decoded: a template literal `say"hi"` matches the request's `say%22hi%22`.
    const segments = path.includes("%") ? segmentsOf(path).map(decodeSegment) : segmentsOf(path);
    const params: string[] = [];
    const node = walk(root, segments, 0, params);
    if (!node) return undefined;
    const operation = node.methods.get(method) ?? (method === "HEAD" ? node.methods.get("GET") : undefined);
    if (operation === undefined) return { kind: "method-not-allowed", allow: node.allow };
    return { kind: "found", operation, params };
  };
}

/** Depth-first: the literal child first, then the parameter child (backtracking when the literal branch dead-ends). */
function walk<T>(node: RouteNode<T>, segments: readonly string[], index: number, params: string[]): RouteNode<T> | undefined {
  if (index === segments.length) return node.methods.size > 0 ? node : undefined;
  const segment = segments[index]!;
  const literal = node.literals.get(segment);
  if (literal) {
    const found = walk(literal, segments, index + 1, params);
    if (found) return found;
  }
  if (node.param) {
    params.push(segment);
    const found = walk(node.param, segments, index + 1, params);
    if (found) return found;
    params.pop();
  }
  return undefined;
}

/** Percent-decoding of one segment; a malformed escape is kept as written (the parameter check then rejects it). */
function decodeSegment(segment: string): string {
  if (!segment.includes("%")) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
