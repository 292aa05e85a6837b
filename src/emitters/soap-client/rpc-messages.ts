import { objectLiteralKey, stringLiteral } from "../../codegen/escape.js";
import type { GeneratedFile, Printable } from "../../codegen/generated-file.js";
import type { EmitContext } from "../artifact.js";
import type { BoundOperation, BoundService } from "./bound-operations.js";
import { XML_MODULE } from "./names.js";

/**
 * The rpc-style messages of a service's operations as one object, `{ [operation]: { input, output } }`, each a
 * SoapRpcMessage built from xml.ts's part types (client.ts and server.ts print the same). Returns the const's name,
 * or undefined when no operation is rpc style.
 */
export function emitRpcMessages(f: GeneratedFile, ctx: EmitContext, s: BoundService, constName: string, opType: (op: BoundOperation, part: string) => Printable): string | undefined {
  const rpcOps = s.operations.filter((op) => op.input.kind === "rpc" || op.output?.kind === "rpc");
  if (rpcOps.length === 0) return undefined;
  const rt = (name: string) => f.import(name, ctx.runtimeModule);
  const namespaces = f.import("xmlNamespaces", XML_MODULE);
  const partTypes = f.import("xmlPartTypes", XML_MODULE);
  f.print("/** The wrapper elements of the rpc-style operations: operation name, parts as children (see the runtime's SoapRpcMessage). */");
  f.print(`const ${constName} = {`);
  for (const op of rpcOps) {
    f.print(`  ${objectLiteralKey(op.name)}: {`);
    for (const which of ["input", "output"] as const) {
      const body = op[which];
      if (body?.kind !== "rpc") continue;
      f.print(`    ${which}: `, rt("soapRpcMessage"), "<", opType(op, which), ">({");
      f.print(`      ns: ${stringLiteral(body.ns)},`);
      f.print(`      local: ${stringLiteral(body.local)},`);
      if (body.encoding !== undefined) f.print(`      encoding: ${stringLiteral(body.encoding)},`);
      f.print(`      single: ${body.parts.length === 1},`);
      f.print("      namespaces: ", namespaces, ",");
      if (body.parts.length === 0) f.print("      parts: [],");
      else {
        f.print("      parts: [");
        for (const p of body.parts) {
          f.print("        ", rt("soapRpcPart"), `(${stringLiteral(p.name)}, `, partTypes, `, ${stringLiteral(`{${p.typeName[0]}}${p.typeName[1]}`)}),`);
        }
        f.print("      ],");
      }
      f.print("    }),");
    }
    f.print("  },");
  }
  f.print("};");
  f.print();
  return constName;
}
