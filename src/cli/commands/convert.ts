import { Command, Option } from "commander";
import { convertPayload, WIRE_FORMS, type WireForm } from "../../convert/convert.js";

/** Raw byte streams: binary payloads cannot go through the text-only CliIo. */
export interface ConvertStreams {
  readStdin(): Promise<Uint8Array>;
  writeStdout(bytes: Uint8Array): Promise<void>;
}

/**
 * `specforge convert <spec> --type <name> --from <form> --to <form> [--validate]`: stdin to stdout, like
 * `protoc --decode` or `buf convert`, through the spec's generated codecs. Errors are thrown as UsageError, which
 * the CLI prints as one line (exit 1).
 */
export function convertCommand(streams: ConvertStreams = processStreams()): Command {
  const form = (flag: string, what: string) => new Option(flag, what).choices(WIRE_FORMS).makeOptionMandatory();
  return new Command("convert")
    .description("convert one payload from stdin to stdout between wire forms, using the spec's generated codecs")
    .argument("<spec>", "spec file (.proto, .wsdl/.xsd, OpenAPI .yaml/.json)")
    .requiredOption("-t, --type <name>", "The payload's type: its TS name or the spec's name (contentApi.Response, {ns}local or local element name, schema name)")
    .addOption(form("--from <form>", "Input form: binary (protobuf), json (ProtoJSON for proto, JSON for OpenAPI, the element's value for WSDL/XSD), text (protobuf text format), xml (an XSD element)"))
    .addOption(form("--to <form>", "Output form"))
    .option("--validate", "Also run the generated validator on the decoded value; any issue is an error")
    .option("-I, --proto-path <dir...>", "Extra folders searched for proto imports, like protoc -I")
    .option("--catalog <file>", "An OASIS XML catalog mapping the WSDL's remote imports to local files (docs/wsdl.md)")
    .action(async (spec: string, opts: { type: string; from: WireForm; to: WireForm; validate?: boolean; protoPath?: string[]; catalog?: string }) => {
      const input = await streams.readStdin();
      const output = await convertPayload(
        { spec, type: opts.type, from: opts.from, to: opts.to, validate: opts.validate, protoPaths: opts.protoPath, ...(opts.catalog !== undefined ? { catalog: opts.catalog } : {}) },
        input,
      );
      await streams.writeStdout(output);
    });
}

function processStreams(): ConvertStreams {
  return {
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    // Resolve once the bytes are handed to the OS, so a pipe reader gets all of them before the process exits.
    writeStdout: (bytes) => new Promise((resolve, reject) => process.stdout.write(bytes, (e) => (e ? reject(e) : resolve()))),
  };
}
