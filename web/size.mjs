// Prints the client's size, minified (esbuild) and gzipped (level 9), and fails when it is
// over the budget stated in README.md.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { transformSync } from "esbuild";

const BUDGET = 4096;
const source = readFileSync(new URL("./aisle.js", import.meta.url), "utf8");
const { code } = transformSync(source, { minify: true, format: "esm", target: "es2020" });
const gzipped = gzipSync(code, { level: 9 }).length;
process.stdout.write(JSON.stringify({ source: Buffer.byteLength(source), minified: Buffer.byteLength(code), gzipped, budget: BUDGET }) + "\n");
if (gzipped > BUDGET) {
  process.stderr.write(`aisle.js is ${gzipped} bytes minified and gzipped, over the budget of ${BUDGET}\n`);
  process.exit(1);
}
