/** `npm run schema`: write specforge.schema.json (the config file's JSON Schema) from the option table. */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { configJsonSchemaText } from "../src/config/config-schema.js";

const file = path.resolve(import.meta.dirname, "../specforge.schema.json");
writeFileSync(file, configJsonSchemaText());
console.log(`wrote ${path.relative(process.cwd(), file) || file}`);
