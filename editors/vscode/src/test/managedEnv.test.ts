import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";

import {
  LOCK_DIR,
  MARKER,
  ManagedEnvError,
  ManagedHost,
  VENV_DIR,
  compareVersions,
  ensureManagedEnv,
  findBasePython,
  findBundledWheel,
  plan,
  pythonCandidates,
  readMarker,
} from "../managedEnv";
import { RunResult, venvExecutable } from "../serverResolution";
import { tempDir } from "./helpers";

interface FakePython {
  version: string;
  missing?: string;
}

/**
 * A fake world: Pythons on PATH (by name), `-m venv` creates <venv>/bin/python, `-m pip install`
 * succeeds unless told otherwise. Every command is recorded.
 */
function fakeHost(opts: { pythons?: Record<string, FakePython>; pipFails?: boolean; extensionPython?: string } = {}) {
  const root = tempDir();
  const storageDir = path.join(root, "storage");
  const bundledDir = path.join(root, "bundled");
  fs.mkdirSync(bundledDir, { recursive: true });
  const pythons = opts.pythons ?? { python3: { version: "3.11" } };
  const calls: string[] = [];
  const venvPython = venvExecutable(path.join(storageDir, VENV_DIR), "python", "linux");
  const host: ManagedHost & { calls: string[]; log: (m: string) => void; logs: string[] } = {
    platform: "linux",
    env: { PATH: "/fake/bin" },
    storageDir,
    bundledDir,
    calls,
    logs: [],
    isFile: async (p) => fs.existsSync(p) || Object.keys(pythons).some((name) => p === path.join("/fake/bin", name)),
    async run(command: string, args: string[]): Promise<RunResult> {
      calls.push(`run ${path.basename(command)} ${args[0]}`);
      if (command === venvPython) {
        return { code: 0, stdout: "0.1.0 3.11\n", stderr: "" };
      }
      const info = pythons[path.basename(command)] ?? (command === opts.extensionPython ? { version: "3.12" } : undefined);
      if (!info) {
        return { code: null, stdout: "", stderr: "", error: "ENOENT" };
      }
      const [major, minor] = info.version.split(".").map(Number);
      const ok = major > 3 || (major === 3 && minor >= 10);
      return { code: ok ? 0 : 5, stdout: `${info.version}\n${info.missing ?? "-"}\n/real/${path.basename(command)}\n`, stderr: "" };
    },
    async runStreaming(command: string, args: string[], onLine: (l: string) => void): Promise<RunResult> {
      calls.push([command, ...args].map((a) => (path.isAbsolute(a) ? path.basename(a) : a)).join(" "));
      if (args[0] === "-m" && args[1] === "venv") {
        fs.mkdirSync(path.dirname(venvPython), { recursive: true });
        fs.writeFileSync(venvPython, "");
        return { code: 0, stdout: "", stderr: "" };
      }
      if (opts.pipFails) {
        return { code: 1, stdout: "", stderr: "ERROR: Could not find a version that satisfies the requirement pygls<3,>=2.1\n" };
      }
      onLine("Collecting pygls<3,>=2.1");
      return { code: 0, stdout: "Successfully installed burnlint-0.1.0\n", stderr: "" };
    },
    pythonExtensionInterpreter: async () => opts.extensionPython,
    log(message: string) {
      this.logs.push(message);
    },
    sleep: async () => undefined,
  };
  return host;
}

function addWheel(host: ManagedHost, version: string, content = version): string {
  const file = path.join(host.bundledDir, `burnlint-${version}-py3-none-any.whl`);
  fs.writeFileSync(file, content);
  return file;
}

describe("managed environment", () => {
  it("creates the venv with the base Python, installs the wheel and writes the marker", async () => {
    const host = fakeHost();
    addWheel(host, "0.1.0");
    const messages: string[] = [];
    const server = await ensureManagedEnv(host, (m) => messages.push(m));
    assert.deepEqual(server.args, ["-m", "burnlint", "server"]);
    assert.equal(server.source, "managed environment");
    assert.equal(server.command, venvExecutable(path.join(host.storageDir, VENV_DIR), "python", "linux"));
    assert.ok(host.calls.includes("python3 -m venv venv"), host.calls.join("\n"));
    assert.ok(host.calls.some((c) => c.startsWith("python -m pip install") && c.endsWith(" burnlint-0.1.0-py3-none-any.whl")), host.calls.join("\n"));
    assert.equal(readMarker(host.storageDir)?.version, "0.1.0");
    assert.ok(messages.some((m) => /Creating a Python 3\.11 environment/.test(m)));
    assert.ok(messages.some((m) => /Collecting pygls/.test(m)), messages.join("\n"));
    assert.equal(fs.existsSync(path.join(host.storageDir, LOCK_DIR)), false, "lock released");
  });

  it("reuses the environment afterwards without running pip or reporting progress", async () => {
    const host = fakeHost();
    addWheel(host, "0.1.0");
    await ensureManagedEnv(host);
    host.calls.length = 0;
    const messages: string[] = [];
    await ensureManagedEnv(host, (m) => messages.push(m));
    assert.deepEqual(host.calls, []);
    assert.deepEqual(messages, []);
  });

  it("re-creates it when the bundled version changes", async () => {
    const host = fakeHost();
    const old = addWheel(host, "0.1.0");
    await ensureManagedEnv(host);
    fs.rmSync(old);
    addWheel(host, "0.2.0");
    host.calls.length = 0;
    const server = await ensureManagedEnv(host);
    assert.equal(server.version, "0.2.0");
    assert.ok(host.calls.includes("python3 -m venv venv"), host.calls.join("\n"));
    assert.equal(readMarker(host.storageDir)?.version, "0.2.0");
  });

  it("only re-installs the wheel when the same version was rebuilt", async () => {
    const host = fakeHost();
    addWheel(host, "0.1.0", "build 1");
    await ensureManagedEnv(host);
    addWheel(host, "0.1.0", "build 2");
    host.calls.length = 0;
    await ensureManagedEnv(host);
    assert.ok(!host.calls.some((c) => c.includes("-m venv")), host.calls.join("\n"));
    assert.ok(host.calls.some((c) => c.includes("--force-reinstall")), host.calls.join("\n"));
  });

  it("fails with an actionable error when pip fails, and retries from scratch next time", async () => {
    const host = fakeHost({ pipFails: true });
    addWheel(host, "0.1.0");
    await assert.rejects(ensureManagedEnv(host), (e: unknown) => {
      assert.ok(e instanceof ManagedEnvError);
      assert.equal(e.hint, "install");
      assert.match(e.message, /Could not find a version that satisfies.*PyPI.*burnlint\.interpreter/s);
      return true;
    });
    assert.equal(readMarker(host.storageDir), undefined);
    assert.equal(fs.existsSync(path.join(host.storageDir, LOCK_DIR)), false, "lock released after failure");
  });

  it("fails clearly without a bundled wheel", async () => {
    const host = fakeHost();
    await assert.rejects(ensureManagedEnv(host), /no bundled burnlint wheel.*pip install burnlint/);
  });

  it("removes a stale lock left by a crashed window", async () => {
    const host = fakeHost();
    addWheel(host, "0.1.0");
    const lock = path.join(host.storageDir, LOCK_DIR);
    fs.mkdirSync(lock, { recursive: true });
    const old = new Date(Date.now() - 60 * 60_000);
    fs.utimesSync(lock, old, old);
    await ensureManagedEnv(host);
    assert.equal(readMarker(host.storageDir)?.version, "0.1.0");
  });
});

describe("base Python", () => {
  it("prefers the Python extension's interpreter", async () => {
    const host = fakeHost({ extensionPython: "/envs/ext/bin/python" });
    const base = await findBasePython(host);
    assert.equal(base.executable, "/real/python");
    assert.equal(host.calls[0], "run python -c");
  });

  it("takes the newest python3.X >= 3.10 from PATH and skips old ones", async () => {
    const host = fakeHost({ pythons: { python3: { version: "3.9" }, "python3.12": { version: "3.12" } } });
    const base = await findBasePython(host);
    assert.deepEqual(base, { executable: "/real/python3.12", version: "3.12" });
  });

  it("says what was tried when no Python is new enough", async () => {
    const host = fakeHost({ pythons: { python3: { version: "3.8" } } });
    await assert.rejects(findBasePython(host), (e: unknown) => {
      assert.ok(e instanceof ManagedEnvError);
      assert.equal(e.hint, "python");
      assert.match(e.message, /Python >= 3\.10.*tried: .*python3 \(Python 3\.8\).*burnlint\.interpreter/);
      return true;
    });
  });

  it("points at python3-venv when venv/ensurepip is missing", async () => {
    const host = fakeHost({ pythons: { python3: { version: "3.11", missing: "ensurepip" } } });
    await assert.rejects(findBasePython(host), /apt install python3-venv/);
  });

  it("lists candidates newest first", () => {
    const c = pythonCandidates("linux");
    assert.equal(c[0], "python3.14");
    assert.ok(c.indexOf("python3.10") < c.indexOf("python3"));
    assert.ok(!c.includes("python3.9"));
  });
});

describe("helpers", () => {
  it("picks the newest bundled wheel", () => {
    const dir = tempDir();
    for (const v of ["0.9.0", "0.10.0", "0.2.1"]) {
      fs.writeFileSync(path.join(dir, `burnlint-${v}-py3-none-any.whl`), "");
    }
    fs.writeFileSync(path.join(dir, "other-1.0-py3-none-any.whl"), "");
    assert.equal(findBundledWheel(dir)?.version, "0.10.0");
    assert.equal(findBundledWheel(path.join(dir, "missing")), undefined);
  });

  it("compares versions numerically", () => {
    assert.equal(compareVersions("0.10.0", "0.9.1"), 1);
    assert.equal(compareVersions("1.0", "1.0.0"), 0);
    assert.equal(compareVersions("0.1.0", "0.1.1"), -1);
  });

  it("plans reuse / reinstall / create", () => {
    const wheel = { path: "/w", file: "burnlint-0.1.0-py3-none-any.whl", version: "0.1.0" };
    const marker = { version: "0.1.0", wheel: wheel.file, sha256: "a", python: "3.11", created: "" };
    assert.equal(plan(marker, wheel, "a", true), "reuse");
    assert.equal(plan(marker, wheel, "b", true), "reinstall-wheel");
    assert.equal(plan(marker, wheel, "a", false), "create");
    assert.equal(plan({ ...marker, version: "0.0.9" }, wheel, "a", true), "create");
    assert.equal(plan(undefined, wheel, "a", true), "create");
  });

  it("ignores a corrupt marker", () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, VENV_DIR));
    fs.writeFileSync(path.join(dir, VENV_DIR, MARKER), "{not json");
    assert.equal(readMarker(dir), undefined);
  });
});
