import { sampleTests } from "./sample.js";

/** Half of the APIs.guru directory sample (test/directory/sample.ts); the other half is in sample-part2.test.ts. */
sampleTests(0, 2);
