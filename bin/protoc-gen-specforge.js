#!/usr/bin/env node
import { main } from "../dist/plugin/main.js";
process.exitCode = await main();
