/** Test helpers: temp folders and fake executables (POSIX shell scripts). */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after } from "node:test";

const roots: string[] = [];
after(() => {
  for (const root of roots) {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

export function tempDir(prefix = "burnlint-test-"): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  roots.push(dir);
  return dir;
}

/** Writes an executable `#!/bin/sh` script. */
export function script(file: string, body: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

/** A fake `burnlint` executable answering `--version`. */
export function fakeBurnlint(file: string, version = "0.1.0"): string {
  return script(file, `if [ "$1" = "--version" ]; then echo "burnlint ${version}"; exit 0; fi\nexit 0`);
}

/**
 * A fake Python answering the resolution probe (`-c <probe>`): exit 0 with "<burnlint> <python>",
 * or the given exit code (3 = no burnlint, 4 = old burnlint, 5 = old Python).
 */
export function fakePython(file: string, opts: { code?: number; burnlint?: string; python?: string } = {}): string {
  const code = opts.code ?? 0;
  const out = code === 0 ? `${opts.burnlint ?? "0.1.0"} ${opts.python ?? "3.11"}` : code === 5 ? `python ${opts.python ?? "3.8"}` : "";
  return script(file, `${out ? `echo "${out}"` : ""}\nexit ${code}`);
}

export const posixOnly = process.platform === "win32" ? { skip: "uses POSIX shell scripts" } : {};
