import { describe, expect, it } from "vitest";
import {
  restFilesAsBytes, restFormFields, restFormFile, restFormFiles, restFormPieces, restFormText, restMultipartBody,
} from "../../../src/runtime/rest/form-body.js";
import { restCoerceForm } from "../../../src/runtime/rest/style-read.js";

const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe("urlencoded form bodies", () => {
  it("writes each property in its encoding's style, nested values in the bracket convention, skipping null", () => {
    const pieces = restFormPieces(
      { amount: 5, tags: ["a", "b"], csv: ["x", "y"], expand: ["e"], address: { city: "Paris" }, gone: null, skip: undefined },
      [["csv", "form", false], ["expand", "deepObject", true]],
    );
    expect(pieces.map(decodeURIComponent)).toEqual(["amount=5", "tags=a", "tags=b", "csv=x,y", "expand[0]=e", "address[city]=Paris"]);
  });

  it("reads fields back by style and coerces them leniently (what does not fit stays text)", () => {
    const form = new URLSearchParams("amount=5&tags=a&tags=b&csv=x,y&expand[]=e&address[city]=Paris&paid=maybe");
    expect(restFormText(form, "tags", "form", true, "a")).toEqual(["a", "b"]);
    expect(restFormText(form, "csv", "form", false, "a")).toEqual(["x", "y"]);
    expect(restFormText(form, "expand", "deepObject", true, "a")).toEqual(["e"]);
    expect(plain(restFormText(form, "address", "form", true, "o"))).toEqual({ city: "Paris" });
    expect(restFormText(form, "missing", "form", true, "p")).toBeUndefined();
    expect(restCoerceForm("5", "integer")).toBe(5);
    expect(restCoerceForm("maybe", "boolean")).toBe("maybe");
    expect(restCoerceForm(["1", "x"], { list: "number" })).toEqual([1, "x"]);
    expect(plain(restCoerceForm({ gt: "1", note: "n" }, { fields: [["gt", "integer"]] }))).toEqual({ gt: 1, note: "n" });
    expect(restCoerceForm("7", { anyOf: [{ list: "string" }, "integer"] })).toBe(7);
  });
});

describe("multipart form bodies", () => {
  it("writes files as file parts and everything else as text fields", async () => {
    const file = new File(["pdf"], "a.pdf", { type: "application/pdf" });
    const form = restMultipartBody(
      { file, bytes: new Uint8Array([1, 2]), many: [new Blob(["1"]), new Blob(["2"])], n: 3, tags: ["a", "b"], meta: { k: 1 }, expand: ["x"] },
      [["expand", "deepObject", true]],
    );
    expect(form.get("file")).toBeInstanceOf(File);
    expect((form.get("file") as File).name).toBe("a.pdf");
    expect(new Uint8Array(await (form.get("bytes") as Blob).arrayBuffer())).toEqual(new Uint8Array([1, 2]));
    expect(form.getAll("many")).toHaveLength(2);
    expect(form.get("n")).toBe("3");
    expect(form.getAll("tags")).toEqual(["a", "b"]);
    expect(form.get("meta")).toBe('{"k":1}');
    expect(form.get("expand[0]")).toBe("x");
  });

  it("reads text fields, files and JSON object fields back", () => {
    const form = new FormData();
    form.append("file", new Blob(["x"]));
    form.append("note", "hi");
    form.append("meta", '{"k":1}');
    form.append("many", new Blob(["1"]));
    form.append("many", new Blob(["2"]));
    const fields = restFormFields(form);
    expect(fields.getAll("file")).toEqual([]);
    expect(fields.get("note")).toBe("hi");
    expect(restFormText(fields, "meta", "form", true, "o")).toEqual({ k: 1 });
    expect(restFormFile(form, "file")).toBeInstanceOf(Blob);
    expect(restFormFile(form, "note")).toBe("hi");
    expect(restFormFile(form, "none")).toBeUndefined();
    expect(restFormFiles(form, "many")).toHaveLength(2);
    expect(restFormFiles(form, "none")).toBeUndefined();
  });

  it("shows the validator files as bytes and leaves everything else as it is", () => {
    const checked = restFilesAsBytes({ file: new Blob(["x"]), many: [new Blob(["y"]), "text"], n: 1 }) as Record<string, unknown>;
    expect(checked["file"]).toBeInstanceOf(Uint8Array);
    expect((checked["many"] as unknown[])[0]).toBeInstanceOf(Uint8Array);
    expect((checked["many"] as unknown[])[1]).toBe("text");
    expect(checked["n"]).toBe(1);
    expect(restFilesAsBytes("not an object")).toBe("not an object");
  });
});
