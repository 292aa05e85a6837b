import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, type Stats } from "node:fs";
import path from "node:path";

/**
 * The largest spec file read by default (256 MiB): far above any real contract (Stripe's OpenAPI is 4 MB), low enough
 * that a huge or endless file (a download gone wrong, /dev/zero behind a symlink) is refused before it is read.
 */
export const DEFAULT_MAX_SPEC_BYTES = 256 * 1024 * 1024;

/**
 * How parsers reach the file system. Parsers never call `fs` directly, so tests can feed them in-memory specs and
 * the CLI can decide how paths are shown.
 */
export interface SpecHost {
  /** Read a file by absolute path; throws (ENOENT etc.) when it cannot. */
  readFile(absolutePath: string): string;
  /** How a path appears in error messages (`file:line:col`): relative to the working directory by default. */
  displayPath(absolutePath: string): string;
  /** Extra directories searched for proto imports (like protoc -I). The entry file's directory is always searched. */
  readonly includeDirs?: readonly string[];
  /** The working directory: like protoc, the proto path when no include directories are given. */
  readonly workingDir?: string;
  /** Folders files may be read from (NodeHostOptions.roots), so worker threads can build the same host. */
  readonly roots?: readonly string[];
  /** The size limit of one spec file (NodeHostOptions.maxFileBytes). */
  readonly maxFileBytes?: number;
  /** Absolute path of the OASIS XML catalog that maps remote (or missing) schema and WSDL locations to local files. */
  readonly catalog?: string;
}

export interface NodeHostOptions {
  readonly cwd?: string;
  readonly includeDirs?: readonly string[];
  /**
   * Folders spec files may be read from (absolute). A file outside all of them (once symlinks are followed) is
   * refused before it is opened: an import, `$ref` or include of `/etc/passwd` or `../../..` never reaches the file.
   * Absent: no restriction (library callers that pass their own paths).
   */
  readonly roots?: readonly string[];
  /** Files larger than this are refused before they are read (default DEFAULT_MAX_SPEC_BYTES). */
  readonly maxFileBytes?: number;
  /** The run's XML catalog (SpecHost.catalog). */
  readonly catalog?: string;
}

/** Why a spec file is not read; the message names the rule, never anything of the file's content. */
export class SpecFileRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SpecFileRefused";
  }
}

export function nodeSpecHost(options: NodeHostOptions = {}): SpecHost {
  const cwd = options.cwd ?? process.cwd();
  const roots = options.roots?.map((r) => realpathOrSelf(path.resolve(r)));
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_SPEC_BYTES;
  return {
    readFile: (p) => readSpecFile(p, roots, maxBytes, (d) => {
      const rel = path.relative(cwd, d);
      return rel === "" ? "." : rel.startsWith("..") || path.isAbsolute(rel) ? d : rel;
    }),
    displayPath: (p) => {
      const rel = path.relative(cwd, p);
      return rel.startsWith("..") || path.isAbsolute(rel) ? p : rel;
    },
    includeDirs: options.includeDirs,
    workingDir: cwd,
    ...(options.roots !== undefined ? { roots: options.roots } : {}),
    ...(options.maxFileBytes !== undefined ? { maxFileBytes: options.maxFileBytes } : {}),
    ...(options.catalog !== undefined ? { catalog: options.catalog } : {}),
  };
}

/**
 * Read one spec file, safely: inside the roots (checked on the real path, before opening), a regular file (not a
 * device, FIFO or directory: checked on the opened descriptor, so a swap between check and read cannot slip one in),
 * and at most `maxBytes` (checked on the descriptor's size, and again while reading, for a file that grows).
 */
function readSpecFile(file: string, roots: readonly string[] | undefined, maxBytes: number, show: (dir: string) => string): string {
  if (roots !== undefined) {
    const real = realpathOrSelf(file);
    if (!roots.some((root) => isInside(root, real))) {
      throw new SpecFileRefused(`outside the folders specs may be read from (${roots.map(show).join(", ")}); allow its folder with --root <dir> or the config's "roots"`);
    }
  }
  // O_NONBLOCK: opening a named pipe for reading would otherwise wait for a writer, forever.
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new SpecFileRefused(`not a regular file (${kindOf(stat)})`);
    if (stat.size > maxBytes) throw new SpecFileRefused(tooLarge(`${stat.size} bytes`, maxBytes));
    const buf = Buffer.allocUnsafe(Math.min(stat.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buf, length, buf.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > maxBytes) throw new SpecFileRefused(tooLarge(`more than ${maxBytes} bytes`, maxBytes));
      if (length === buf.length) break;
    }
    return decodeSpecText(buf.subarray(0, length));
  } finally {
    closeSync(fd);
  }
}

/**
 * A spec file's text: UTF-8, or UTF-16 when it starts with a UTF-16 byte order mark (XML 1.0 §4.3.3: an entity in
 * UTF-16 must begin with one; a few of the W3C XSD suite's schemas are UTF-16). The mark itself is dropped.
 */
export function decodeSpecText(buf: Buffer): string {
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe) return buf.subarray(2).toString("utf16le");
  if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff) {
    const swapped = Buffer.from(buf.subarray(2, 2 + ((buf.length - 2) & ~1)));
    return swapped.swap16().toString("utf16le");
  }
  return buf.toString("utf8");
}

function tooLarge(size: string, max: number): string {
  return `${size}, over the size limit for a spec file (${max} bytes; raise it with --max-spec-bytes)`;
}

function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return "a directory";
  if (stat.isCharacterDevice()) return "a character device";
  if (stat.isBlockDevice()) return "a block device";
  if (stat.isFIFO()) return "a named pipe";
  if (stat.isSocket()) return "a socket";
  return "not a file";
}

function realpathOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    // A file that does not exist (yet): its parent's real path, so a missing import is "not found", not "outside".
    const parent = path.dirname(p);
    return parent === p ? p : path.join(realpathOrSelf(parent), path.basename(p));
  }
}

function isInside(root: string, file: string): boolean {
  const rel = path.relative(root, file);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** An in-memory host for tests: keys are absolute paths ("/spec/a.wsdl"). */
export function memorySpecHost(files: Readonly<Record<string, string>>, includeDirs?: readonly string[], catalog?: string): SpecHost {
  return {
    readFile: (p) => {
      const text = files[p];
      if (text === undefined) throw Object.assign(new Error(`ENOENT: no such file '${p}'`), { code: "ENOENT" });
      return text;
    },
    displayPath: (p) => p,
    includeDirs,
    ...(catalog !== undefined ? { catalog } : {}),
  };
}

/**
 * The path recorded in `Origin.file`: relative to the entry spec's folder, with forward slashes, so that generated
 * doc comments do not depend on where specforge was run from.
 */
export function originPath(entryFile: string, file: string): string {
  const rel = path.relative(path.dirname(entryFile), file).split(path.sep).join("/");
  return rel === "" ? path.basename(file) : rel;
}
