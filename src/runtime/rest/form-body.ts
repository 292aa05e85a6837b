import { restQueryDeep, restQueryText, type RestText } from "./style-read.js";
import { restAppendDeepQuery, restAppendQuery, restEncode, restScalarText, type RestStyle } from "./style-write.js";
import type { RestQuery } from "./query.js";

/**
 * Form request bodies, application/x-www-form-urlencoded and multipart/form-data, as OpenAPI describes them: each
 * property of the body's object is one field (or, for arrays, several), written in the style its Encoding Object
 * gives (default form, exploded). What no style can write flat (an object, an array of objects) uses the bracket
 * convention of deepObject (`address[city]=Paris`), which is also what Stripe declares; in multipart bodies an
 * object without a deepObject encoding is one JSON field (OpenAPI's default part type for objects). Files are
 * Blobs (a File keeps its name).
 */

/** One property's Encoding Object: `[property, style, explode]`. */
export type RestEncoding = readonly [property: string, style: RestStyle, explode: boolean];

/**
 * A multipart body as generated clients and servers type it: the schema's object with each binary property
 * (`format: binary`, a Uint8Array in types.ts) a Blob instead.
 */
export type RestMultipart<T> = T extends object ? { [K in keyof T]: RestFilePart<T[K]> } : T;
type RestFilePart<V> = V extends Uint8Array ? Blob : V extends readonly (infer I)[] ? (I extends Uint8Array ? Blob[] : V) : V;

const isStructured = (value: unknown): boolean => typeof value === "object" && value !== null && !(value instanceof Date);

function styleOf(encoding: readonly RestEncoding[], key: string): { style: RestStyle; explode: boolean } {
  const e = encoding.find((x) => x[0] === key);
  return e ? { style: e[1], explode: e[2] } : { style: "form", explode: true };
}

/** The defined properties of a body object, in order (undefined and null are not sent). */
function fieldsOf(value: object): [string, unknown][] {
  return Object.keys(value).flatMap((key) => {
    const item = (value as { [key: string]: unknown })[key];
    return item === undefined || item === null ? [] : [[key, item] as [string, unknown]];
  });
}

/** An application/x-www-form-urlencoded body: encoded `key=value` pieces (restSend joins them with `&`). */
export function restFormPieces(value: object, encoding: readonly RestEncoding[] = []): string[] {
  const pieces: string[] = [];
  for (const [key, item] of fieldsOf(value)) {
    const { style, explode } = styleOf(encoding, key);
    const nested = Array.isArray(item) ? item.some(isStructured) : isStructured(item);
    if (nested) restAppendDeepQuery(pieces, restEncode(key), item);
    else restAppendQuery(pieces, key, item, style, explode);
  }
  return pieces;
}

/** A multipart/form-data body: Blobs (and Uint8Arrays) as file parts, everything else as text fields. */
export function restMultipartBody(value: object, encoding: readonly RestEncoding[] = []): FormData {
  const form = new FormData();
  for (const [key, item] of fieldsOf(value)) {
    const { style, explode } = styleOf(encoding, key);
    const items = Array.isArray(item) ? item : [item];
    if (items.some(isFile)) {
      for (const part of items) appendPart(form, key, part);
    } else if (style === "deepObject" || (Array.isArray(item) && item.some(isStructured))) {
      const pieces: string[] = [];
      restAppendDeepQuery(pieces, restEncode(key), item);
      appendPieces(form, pieces);
    } else if (isStructured(item) && !Array.isArray(item)) {
      form.append(key, JSON.stringify(item));
    } else {
      const pieces: string[] = [];
      restAppendQuery(pieces, key, item, style, explode);
      appendPieces(form, pieces);
    }
  }
  return form;
}

const isFile = (value: unknown): boolean => value instanceof Blob || value instanceof Uint8Array;

function appendPart(form: FormData, key: string, part: unknown): void {
  if (part instanceof Blob) form.append(key, part);
  // A copy: a Blob cannot be built on a view of a SharedArrayBuffer.
  else if (part instanceof Uint8Array) form.append(key, new Blob([new Uint8Array(part)]));
  else form.append(key, restScalarText(part));
}

/** Encoded `key=value` pieces as decoded form fields. */
function appendPieces(form: FormData, pieces: readonly string[]): void {
  for (const piece of pieces) {
    const eq = piece.indexOf("=");
    form.append(decodeURIComponent(piece.slice(0, eq)), decodeURIComponent(piece.slice(eq + 1)));
  }
}

/** The text fields of a multipart body as a query (files left out), for the same readers as urlencoded bodies. */
export function restFormFields(form: FormData): RestQuery {
  const fields = new URLSearchParams();
  form.forEach((value, key) => {
    if (typeof value === "string") fields.append(key, value);
  });
  return fields;
}

/** A file part of a multipart body (a text part is returned as its text, for the validator to report). */
export function restFormFile(form: FormData, key: string): Blob | string | undefined {
  return form.get(key) ?? undefined;
}

/** Every part named `key` of a multipart body; undefined when there is none. */
export function restFormFiles(form: FormData, key: string): (Blob | string)[] | undefined {
  const all = form.getAll(key);
  return all.length > 0 ? all : undefined;
}

/**
 * The text of one property of a form body, read in its encoding's style: a primitive, the items of an array, or
 * an object in the bracket convention (or, in a multipart body, as one JSON field).
 */
export function restFormText(fields: RestQuery, key: string, style: RestStyle, explode: boolean, shapes: string): unknown {
  if (shapes.includes("o") || style === "deepObject") {
    const deep = restQueryDeep(fields, key);
    if (typeof deep !== "string" || !shapes.includes("o")) return deep;
    // A multipart object without a deepObject encoding arrives as one JSON field.
    try {
      return JSON.parse(deep) as unknown;
    } catch {
      return deep;
    }
  }
  return restQueryText(fields, key, style, explode, shapes);
}

/**
 * For the validator of a multipart body: the body with each file part replaced by an empty Uint8Array (the
 * validators check binary properties as bytes; a Blob's content is the handler's to read).
 */
export function restFilesAsBytes(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const out: { [key: string]: unknown } = Object.create(null) as { [key: string]: unknown };
  for (const key of Object.keys(value)) {
    const item = (value as { [key: string]: unknown })[key];
    out[key] = item instanceof Blob ? new Uint8Array(0) : Array.isArray(item) ? item.map((i) => (i instanceof Blob ? new Uint8Array(0) : i)) : item;
  }
  return out;
}
