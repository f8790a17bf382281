import * as assert from "node:assert/strict";
import * as path from "node:path";
import { describe, it } from "node:test";

import { Host, RunResult, nodeHost, resolveServer, venvExecutable, which } from "../serverResolution";
import { fakeBurnlint, fakePython, posixOnly, script, tempDir } from "./helpers";

/** A real host whose PATH is only `dirs`. */
function hostWithPath(...dirs: string[]): Host {
  return nodeHost({ PATH: dirs.join(path.delimiter) });
}

const base = { path: "", interpreter: "", workspaceFolders: [] as string[], trusted: true };

describe("resolveServer", posixOnly, () => {
  it("uses burnlint.path first", async () => {
    const dir = tempDir();
    const exe = fakeBurnlint(path.join(dir, "custom", "burnlint"), "9.9.9");
    const py = fakePython(path.join(dir, "py"));
    const r = await resolveServer({ ...base, path: exe, interpreter: py }, hostWithPath());
    assert.equal(r.kind, "found");
    assert.ok(r.kind === "found");
    assert.deepEqual([r.server.command, r.server.args, r.server.source, r.server.version], [exe, ["server"], "path setting", "9.9.9"]);
  });

  it("reports a burnlint.path that does not exist, without falling through", async () => {
    const dir = tempDir();
    fakeBurnlint(path.join(dir, "bin", "burnlint"));
    const r = await resolveServer({ ...base, path: path.join(dir, "nope", "burnlint") }, hostWithPath(path.join(dir, "bin")));
    assert.equal(r.kind, "error");
    assert.ok(r.kind === "error");
    assert.equal(r.setting, "burnlint.path");
    assert.match(r.message, /no executable exists there/);
  });

  it("reports a burnlint.path that is not burnlint", async () => {
    const dir = tempDir();
    const exe = script(path.join(dir, "burnlint"), "echo 'boom' >&2; exit 1");
    const r = await resolveServer({ ...base, path: exe }, hostWithPath());
    assert.ok(r.kind === "error");
    assert.match(r.message, /does not run as burnlint.*exit code 1: boom/);
  });

  it("looks a bare burnlint.path name up on PATH", async () => {
    const dir = tempDir();
    const exe = fakeBurnlint(path.join(dir, "bin", "burnlint-dev"));
    const r = await resolveServer({ ...base, path: "burnlint-dev" }, hostWithPath(path.join(dir, "bin")));
    assert.ok(r.kind === "found");
    assert.equal(r.server.command, exe);
  });

  it("uses burnlint.interpreter as `python -m burnlint server`", async () => {
    const dir = tempDir();
    const py = fakePython(path.join(dir, "venv", "bin", "python"), { burnlint: "0.1.0", python: "3.12" });
    const r = await resolveServer({ ...base, interpreter: py }, hostWithPath());
    assert.ok(r.kind === "found");
    assert.deepEqual([r.server.command, r.server.args, r.server.source], [py, ["-m", "burnlint", "server"], "interpreter setting"]);
    assert.match(r.log.join("\n"), /Python 3\.12/);
  });

  it("explains an interpreter without burnlint, with the pip command", async () => {
    const dir = tempDir();
    const py = fakePython(path.join(dir, "python3"), { code: 3 });
    const r = await resolveServer({ ...base, interpreter: py }, hostWithPath());
    assert.ok(r.kind === "error");
    assert.equal(r.setting, "burnlint.interpreter");
    assert.match(r.message, /not installed.*-m pip install burnlint/);
  });

  it("explains an interpreter that is too old or has an old burnlint", async () => {
    const dir = tempDir();
    const old = await resolveServer({ ...base, interpreter: fakePython(path.join(dir, "py38"), { code: 5, python: "3.8" }) }, hostWithPath());
    assert.ok(old.kind === "error");
    assert.match(old.message, /Python 3\.8 is too old.*>= 3\.10/);
    const oldBl = await resolveServer({ ...base, interpreter: fakePython(path.join(dir, "py"), { code: 4 }) }, hostWithPath());
    assert.ok(oldBl.kind === "error");
    assert.match(oldBl.message, /no language server.*pip install -U burnlint/);
  });

  it("finds burnlint in a workspace .venv before venv and PATH", async () => {
    const dir = tempDir();
    const ws = path.join(dir, "ws");
    const dotVenv = fakeBurnlint(venvExecutable(path.join(ws, ".venv"), "burnlint", "linux"));
    fakeBurnlint(venvExecutable(path.join(ws, "venv"), "burnlint", "linux"));
    fakeBurnlint(path.join(dir, "bin", "burnlint"));
    const r = await resolveServer({ ...base, workspaceFolders: [ws] }, hostWithPath(path.join(dir, "bin")));
    assert.ok(r.kind === "found");
    assert.deepEqual([r.server.command, r.server.source], [dotVenv, "workspace venv"]);
  });

  it("uses `venv` and later workspace folders too", async () => {
    const dir = tempDir();
    const exe = fakeBurnlint(venvExecutable(path.join(dir, "b", "venv"), "burnlint", "linux"));
    const r = await resolveServer({ ...base, workspaceFolders: [path.join(dir, "a"), path.join(dir, "b")] }, hostWithPath());
    assert.ok(r.kind === "found");
    assert.equal(r.server.command, exe);
  });

  it("skips a broken workspace venv and ignores venvs of untrusted workspaces", async () => {
    const dir = tempDir();
    const ws = path.join(dir, "ws");
    script(venvExecutable(path.join(ws, ".venv"), "burnlint", "linux"), "exit 7");
    const onPath = fakeBurnlint(path.join(dir, "bin", "burnlint"));
    const broken = await resolveServer({ ...base, workspaceFolders: [ws] }, hostWithPath(path.join(dir, "bin")));
    assert.ok(broken.kind === "found");
    assert.equal(broken.server.command, onPath);
    assert.match(broken.log.join("\n"), /skipping .*exit code 7/);

    const good = path.join(dir, "ws2");
    fakeBurnlint(venvExecutable(path.join(good, ".venv"), "burnlint", "linux"));
    const untrusted = await resolveServer({ ...base, workspaceFolders: [good], trusted: false }, hostWithPath(path.join(dir, "bin")));
    assert.ok(untrusted.kind === "found");
    assert.equal(untrusted.server.source, "PATH");
    assert.match(untrusted.log.join("\n"), /not trusted/);
  });

  it("returns notFound when nothing is installed (managed environment next)", async () => {
    const dir = tempDir();
    const r = await resolveServer({ ...base, workspaceFolders: [dir] }, hostWithPath(dir));
    assert.equal(r.kind, "notFound");
    assert.match(r.log.join("\n"), /no burnlint on PATH/);
  });

  it("ignores non-executable files on PATH", async () => {
    const dir = tempDir();
    const exe = fakeBurnlint(path.join(dir, "b", "burnlint"));
    fakeBurnlint(path.join(dir, "a", "burnlint"));
    const fs = await import("node:fs");
    fs.chmodSync(path.join(dir, "a", "burnlint"), 0o644);
    assert.equal(await which("burnlint", hostWithPath(path.join(dir, "a"), path.join(dir, "b"))), exe);
  });
});

describe("Windows layout", () => {
  it("uses Scripts\\*.exe and PATHEXT", async () => {
    const files = new Set([path.join("C:\\tools", "burnlint.EXE".toLowerCase())]);
    const host: Host = {
      platform: "win32",
      env: { PATH: "C:\\nothing;C:\\tools", PATHEXT: ".COM;.EXE" },
      isFile: async (p) => files.has(p),
      run: async (): Promise<RunResult> => ({ code: 0, stdout: "burnlint 0.1.0\n", stderr: "" }),
    };
    assert.equal(venvExecutable("C:\\ws\\.venv", "burnlint", "win32"), path.join("C:\\ws\\.venv", "Scripts", "burnlint.exe"));
    assert.equal(await which("burnlint", host), path.join("C:\\tools", "burnlint.exe"));
  });
});
