// npm run package: builds the burnlint wheel from the repository root into bundled/, bundles the
// extension (vsce runs `vscode:prepublish`) and writes burnlint-<version>.vsix.
//   BURNLINT_BUILD_PYTHON  Python used to build the wheel (default: python3)
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const repo = path.resolve(root, "..", "..");
const python = process.env.BURNLINT_BUILD_PYTHON || "python3";
const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
const bundled = path.join(root, "bundled");

function run(command, args, options = {}) {
  const t0 = Date.now();
  const r = spawnSync(command, args, { stdio: "inherit", cwd: root, ...options });
  if (r.error) {
    throw new Error(`${command}: ${r.error.message}`);
  }
  console.log(`   (${command} ${args[0] ?? ""} ${args[1] ?? ""}: ${((Date.now() - t0) / 1000).toFixed(1)}s, exit ${r.status})`);
  return r.status;
}

fs.rmSync(bundled, { recursive: true, force: true });
fs.mkdirSync(bundled, { recursive: true });
console.log(`building the burnlint wheel from ${repo}`);
const pipArgs = ["-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "--no-deps", "-w", bundled, repo];
if (run(python, pipArgs) !== 0) {
  // Offline machines with hatchling installed can still build it without build isolation.
  console.log("retrying without build isolation");
  if (run(python, [...pipArgs.slice(0, 3), "--no-build-isolation", ...pipArgs.slice(3)]) !== 0) {
    console.error("could not build the burnlint wheel");
    process.exit(1);
  }
}
const wheels = fs.readdirSync(bundled).filter((f) => /^burnlint-.*\.whl$/.test(f));
if (wheels.length !== 1) {
  console.error(`expected one burnlint wheel in ${bundled}, found: ${wheels.join(", ") || "none"}`);
  process.exit(1);
}
const wheelVersion = /^burnlint-([^-]+)-/.exec(wheels[0])[1];
if (wheelVersion !== pkg.version) {
  console.error(`version mismatch: the wheel is burnlint ${wheelVersion}, package.json says ${pkg.version}; keep them equal`);
  process.exit(1);
}
console.log(`bundled ${wheels[0]}`);

const vsix = `burnlint-${pkg.version}.vsix`;
const vsce = path.join(root, "node_modules", "@vscode", "vsce", "vsce");
const status = run(process.execPath, [vsce, "package", "--no-dependencies", "--allow-missing-repository", "--no-rewrite-relative-links", "-o", vsix]);
if (status !== 0) {
  process.exit(status ?? 1);
}
console.log(`wrote ${path.join(root, vsix)}`);
