import { InvalidArgumentError, Option, type Command } from "commander";
import { commandOptions, type CommandName, type OptionDef } from "../config/options.js";

/** Commander options of one command, straight from the option table (flags, help text, choices). */
export function addTableOptions(command: Command, name: CommandName): Command {
  for (const def of commandOptions(name)) command.addOption(toOption(def));
  return command;
}

function toOption(def: OptionDef): Option {
  const dflt = def.defaultText ?? (def.default === undefined || def.type === "boolean" ? undefined : [def.default].flat().join(","));
  const help = `${def.description.replace(/\.$/, "")}${dflt ? ` (default: ${dflt})` : ""}`;
  const option = new Option(def.flag!, help);
  if (def.type === "enum") option.choices(def.values!);
  if (def.type === "enum[]") {
    option.argParser((value: string) => {
      const list = value.split(",").map((v) => v.trim()).filter((v) => v !== "");
      const bad = list.filter((v) => !def.values!.includes(v));
      if (bad.length > 0 || list.length === 0) throw new InvalidArgumentError(`Allowed: ${def.values!.join(", ")} (comma-separated).`);
      return list;
    });
  }
  return option;
}

/**
 * The parsed flags of a command under the table's names (commander names them after the long flag:
 * --proto-path -> protoPath, the table says protoPaths). Only flags the user gave are present.
 */
export function tableValues(name: CommandName, opts: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const def of commandOptions(name)) {
    const value = opts[new Option(def.flag!).attributeName()];
    if (value !== undefined) out[def.name] = value;
  }
  return out;
}
