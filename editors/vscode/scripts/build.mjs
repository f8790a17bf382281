// Bundles the extension (dist/extension.js) or the unit tests (out/test/*.test.js) with esbuild.
//   node scripts/build.mjs [--production] [--watch] [--tests]
import * as esbuild from "esbuild";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = new Set(process.argv.slice(2));
const production = args.has("--production");

const common = {
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  sourcemap: production ? false : "linked",
  minify: production,
  logLevel: "info",
  absWorkingDir: root,
};

if (args.has("--tests")) {
  const dir = path.join(root, "src", "test");
  const entryPoints = fs.readdirSync(dir).filter((f) => f.endsWith(".test.ts")).map((f) => path.join("src", "test", f));
  fs.rmSync(path.join(root, "out"), { recursive: true, force: true });
  // The modules under test never import `vscode` at run time; marking it external makes an
  // accidental import fail loudly instead of being bundled.
  await esbuild.build({ ...common, entryPoints, outdir: "out/test", external: ["vscode"], logLevel: "warning" });
} else {
  const options = { ...common, entryPoints: ["src/extension.ts"], outfile: "dist/extension.js", external: ["vscode"] };
  if (args.has("--watch")) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
  } else {
    await esbuild.build(options);
  }
}
