/**
 * The managed environment: a venv in the extension's global storage with the bundled burnlint
 * wheel installed (its dependencies come from PyPI). burnlint depends on tree-sitter, whose wheels
 * are built per CPython version, so the server cannot be shipped as pure Python inside the VSIX.
 *
 * - The base Python is the Python extension's interpreter when it is >= 3.10, else the first
 *   python3.X >= 3.10 on PATH.
 * - The venv is reused while `burnlint-managed.json` says it holds the bundled wheel's version;
 *   it is re-created when the bundled version changes (and the wheel is re-installed when only
 *   its hash changed, i.e. a rebuilt development wheel).
 * - A lock directory keeps two windows from building it at the same time.
 *
 * This module has no runtime dependency on `vscode`; it is unit-tested in plain Node.
 */
import { spawn } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

import { Host, MIN_PYTHON, RunResult, ServerCommand, probePython, venvExecutable, which } from "./serverResolution";

export const MARKER = "burnlint-managed.json";
export const VENV_DIR = "venv";
export const LOCK_DIR = "venv.lock";
const LOCK_STALE_MS = 15 * 60_000;
const INSTALL_TIMEOUT_MS = 15 * 60_000;

export interface Marker {
  version: string;
  wheel: string;
  sha256: string;
  python: string;
  created: string;
}

export interface Wheel {
  path: string;
  file: string;
  version: string;
}

export interface ManagedHost extends Host {
  /** Global storage folder of the extension. */
  storageDir: string;
  /** Folder holding the bundled `burnlint-<version>-py3-none-any.whl`. */
  bundledDir: string;
  /** The Python extension's interpreter, if that extension is installed and has one. */
  pythonExtensionInterpreter(): Promise<string | undefined>;
  /** Runs a long command, streaming its output lines. */
  runStreaming(command: string, args: string[], onLine: (line: string) => void, timeoutMs: number): Promise<RunResult>;
  log(message: string): void;
  sleep(ms: number): Promise<void>;
}

export class ManagedEnvError extends Error {
  constructor(
    message: string,
    readonly hint: "python" | "venv" | "install" | "wheel" | "busy",
  ) {
    super(message);
  }
}

/** Finds the wheel shipped in the VSIX; the newest version if there are several. */
export function findBundledWheel(bundledDir: string): Wheel | undefined {
  let files: string[];
  try {
    files = fs.readdirSync(bundledDir);
  } catch {
    return undefined;
  }
  const wheels = files
    .map((file) => ({ file, m: /^burnlint-([^-]+)-.*\.whl$/.exec(file) }))
    .filter((w): w is { file: string; m: RegExpExecArray } => w.m !== null)
    .map(({ file, m }) => ({ file, path: path.join(bundledDir, file), version: m[1] }))
    .sort((a, b) => compareVersions(b.version, a.version));
  return wheels[0];
}

/** Compares dotted versions numerically where possible ("0.10.0" > "0.9.1"). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.+-]/);
  const pb = b.split(/[.+-]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? "0";
    const y = pb[i] ?? "0";
    const nx = Number(x);
    const ny = Number(y);
    const c = Number.isNaN(nx) || Number.isNaN(ny) ? x.localeCompare(y) : nx - ny;
    if (c !== 0) {
      return c < 0 ? -1 : 1;
    }
  }
  return 0;
}

export function sha256File(file: string): string {
  return crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

export function readMarker(storageDir: string): Marker | undefined {
  try {
    const data = JSON.parse(fs.readFileSync(path.join(storageDir, VENV_DIR, MARKER), "utf8")) as Partial<Marker>;
    if (typeof data.version === "string" && typeof data.sha256 === "string") {
      return { version: data.version, wheel: data.wheel ?? "", sha256: data.sha256, python: data.python ?? "", created: data.created ?? "" };
    }
  } catch {
    // missing or unreadable: treated as "no managed environment"
  }
  return undefined;
}

export type Plan = "reuse" | "reinstall-wheel" | "create";

/** What to do with the managed environment given its marker and the bundled wheel. */
export function plan(marker: Marker | undefined, wheel: Wheel, wheelSha: string, venvPythonExists: boolean): Plan {
  if (!marker || !venvPythonExists || marker.version !== wheel.version) {
    return "create";
  }
  return marker.sha256 === wheelSha ? "reuse" : "reinstall-wheel";
}

/** Python candidates on PATH, newest first. */
export function pythonCandidates(platform: NodeJS.Platform): string[] {
  const minors: string[] = [];
  for (let minor = 14; minor >= MIN_PYTHON[1]; minor--) {
    minors.push(`python3.${minor}`);
  }
  return platform === "win32" ? ["python", "python3", "py"] : [...minors, "python3", "python"];
}

/** Prints three lines: `major.minor`, missing modules (or `-`), sys.executable; exit code 5 when too old. */
export const BASE_PROBE = [
  "import sys",
  "import importlib.util as u",
  "missing = [m for m in ('venv', 'ensurepip') if u.find_spec(m) is None]",
  "print('%d.%d' % sys.version_info[:2]); print(','.join(missing) or '-'); print(sys.executable)",
  `sys.exit(0 if sys.version_info >= (${MIN_PYTHON[0]}, ${MIN_PYTHON[1]}) else 5)`,
].join("\n");

export interface BasePython {
  executable: string;
  version: string;
}

/**
 * Picks the Python that creates the venv. Throws ManagedEnvError (hint "python" or "venv") with
 * what was tried when none fits.
 */
export async function findBasePython(host: ManagedHost): Promise<BasePython> {
  const tried: string[] = [];
  let missingVenv: string | undefined;
  const candidates: string[] = [];
  const fromExtension = await host.pythonExtensionInterpreter().catch(() => undefined);
  if (fromExtension) {
    candidates.push(fromExtension);
  }
  for (const name of pythonCandidates(host.platform)) {
    const found = await which(name, host);
    if (found && !candidates.includes(found)) {
      candidates.push(found);
    }
  }
  for (const candidate of candidates) {
    const args = path.basename(candidate).toLowerCase().startsWith("py.") || path.basename(candidate).toLowerCase() === "py" ? ["-3", "-c", BASE_PROBE] : ["-c", BASE_PROBE];
    const r = await host.run(candidate, args, 20_000);
    const [version = "?", missing = "-", reported = ""] = r.stdout.trim().split(/\r?\n/);
    const executable = reported.trim() || candidate;
    if (r.error || (r.code !== 0 && r.code !== 5)) {
      tried.push(`${candidate} (does not run)`);
      continue;
    }
    if (r.code === 5) {
      tried.push(`${candidate} (Python ${version})`);
      continue;
    }
    if (missing !== "-") {
      tried.push(`${candidate} (Python ${version}, no ${missing})`);
      missingVenv ??= candidate;
      continue;
    }
    return { executable, version };
  }
  if (missingVenv) {
    throw new ManagedEnvError(
      `burnlint needs a Python >= ${MIN_PYTHON.join(".")} that can create virtual environments, but ${missingVenv} has no venv/ensurepip module. ` +
        `On Debian/Ubuntu install it with \`sudo apt install python3-venv\`, or set burnlint.interpreter to a Python that has burnlint installed.`,
      "venv",
    );
  }
  throw new ManagedEnvError(
    `burnlint needs Python >= ${MIN_PYTHON.join(".")} to run its language server, and none was found` +
      (tried.length ? ` (tried: ${tried.join(", ")})` : " on PATH") +
      `. Install Python ${MIN_PYTHON.join(".")} or newer, or set burnlint.interpreter (a Python with burnlint installed) or burnlint.path.`,
    "python",
  );
}

/**
 * Returns the command that runs the server from the managed environment, creating or updating
 * the environment first when needed. `report` receives progress messages.
 */
export async function ensureManagedEnv(host: ManagedHost, report: (message: string) => void = () => undefined): Promise<ServerCommand> {
  const wheel = findBundledWheel(host.bundledDir);
  if (!wheel) {
    throw new ManagedEnvError(
      `This build of the extension has no bundled burnlint wheel (looked in ${host.bundledDir}). Install burnlint yourself (\`pip install burnlint\`) and set burnlint.path or burnlint.interpreter.`,
      "wheel",
    );
  }
  const venv = path.join(host.storageDir, VENV_DIR);
  const python = venvExecutable(venv, "python", host.platform);
  const command: ServerCommand = { command: python, args: ["-m", "burnlint", "server"], source: "managed environment", version: wheel.version };
  const sha = sha256File(wheel.path);

  const current = plan(readMarker(host.storageDir), wheel, sha, await host.isFile(python));
  if (current === "reuse") {
    host.log(`managed environment ${venv} has burnlint ${wheel.version}`);
    return command;
  }

  await fs.promises.mkdir(host.storageDir, { recursive: true });
  const release = await acquireLock(host);
  try {
    // Another window may have finished the job while we waited for the lock.
    const again = plan(readMarker(host.storageDir), wheel, sha, await host.isFile(python));
    if (again === "reuse") {
      return command;
    }
    if (again === "create") {
      const base = await findBasePython(host);
      report(`Creating a Python ${base.version} environment…`);
      host.log(`creating the managed environment ${venv} with ${base.executable} (Python ${base.version})`);
      await fs.promises.rm(venv, { recursive: true, force: true });
      const created = await host.runStreaming(base.executable, ["-m", "venv", venv], host.log, 5 * 60_000);
      if (created.code !== 0 || !(await host.isFile(python))) {
        throw new ManagedEnvError(
          `Could not create a virtual environment with ${base.executable}: ${tail(created)}. On Debian/Ubuntu install \`python3-venv\`.`,
          "venv",
        );
      }
      await install(host, python, wheel, [wheel.path], report, `Installing burnlint ${wheel.version} and its dependencies…`);
    } else {
      await install(host, python, wheel, ["--force-reinstall", "--no-deps", wheel.path], report, `Updating burnlint ${wheel.version}…`);
      await install(host, python, wheel, [wheel.path], report, "Checking dependencies…");
    }
    const probe = await probePython(python, host);
    if (!probe.ok) {
      throw new ManagedEnvError(`The managed environment was created, but ${probe.detail}`, "install");
    }
    const marker: Marker = { version: wheel.version, wheel: wheel.file, sha256: sha, python: probe.python, created: new Date().toISOString() };
    await fs.promises.writeFile(path.join(venv, MARKER), JSON.stringify(marker, null, 2) + "\n");
    host.log(`managed environment ready: burnlint ${probe.version} on Python ${probe.python}`);
    return command;
  } finally {
    await release();
  }
}

async function install(
  host: ManagedHost,
  python: string,
  wheel: Wheel,
  args: string[],
  report: (m: string) => void,
  message: string,
): Promise<void> {
  report(message);
  const pipArgs = ["-m", "pip", "install", "--disable-pip-version-check", "--no-input", ...args];
  host.log(`$ ${python} ${pipArgs.join(" ")}`);
  const r = await host.runStreaming(
    python,
    pipArgs,
    (line) => {
      host.log(line);
      const m = /^(Collecting|Downloading|Installing collected packages:)\s*(\S.*)?$/.exec(line.trim());
      if (m) {
        report(`${message} ${m[1]} ${(m[2] ?? "").slice(0, 60)}`);
      }
    },
    INSTALL_TIMEOUT_MS,
  );
  if (r.code !== 0) {
    throw new ManagedEnvError(
      `Installing burnlint ${wheel.version} into the managed environment failed: ${tail(r)}. ` +
        "pip needs access to PyPI (or a configured index/proxy) for burnlint's dependencies. " +
        "Alternatively install burnlint yourself and set burnlint.interpreter.",
      "install",
    );
  }
}

function tail(r: RunResult): string {
  if (r.error) {
    return r.error;
  }
  const lines = (r.stderr + "\n" + r.stdout)
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const errors = lines.filter((l) => /^error|error:/i.test(l));
  return (errors.length ? errors : lines).slice(-3).join(" ") || `exit code ${r.code}`;
}

/** A cross-process lock: a directory created atomically; stale locks (crashed windows) expire. */
async function acquireLock(host: ManagedHost): Promise<() => Promise<void>> {
  const lock = path.join(host.storageDir, LOCK_DIR);
  const deadline = Date.now() + LOCK_STALE_MS;
  for (;;) {
    try {
      await fs.promises.mkdir(lock);
      return async () => {
        await fs.promises.rm(lock, { recursive: true, force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
        throw error;
      }
    }
    const age = await fs.promises
      .stat(lock)
      .then((st) => Date.now() - st.mtimeMs)
      .catch(() => 0);
    if (age > LOCK_STALE_MS) {
      host.log(`removing a stale lock ${lock}`);
      await fs.promises.rm(lock, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new ManagedEnvError(`Another VS Code window is still setting up burnlint's environment (${lock}).`, "busy");
    }
    await host.sleep(500);
  }
}

/** runStreaming for the real host. */
export function spawnStreaming(command: string, args: string[], onLine: (line: string) => void, timeoutMs: number, env: NodeJS.ProcessEnv = process.env): Promise<RunResult> {
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    let settled = false;
    const child = spawn(command, args, { env: { ...env, PYTHONUNBUFFERED: "1", PIP_NO_INPUT: "1" }, windowsHide: true });
    const timer = setTimeout(() => {
      child.kill();
      finish({ code: null, stdout, stderr, error: `timed out after ${Math.round(timeoutMs / 1000)} s` });
    }, timeoutMs);
    const finish = (r: RunResult): void => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        resolve(r);
      }
    };
    const lines = (chunk: Buffer, which: "out" | "err"): void => {
      const text = chunk.toString();
      if (which === "out") {
        stdout += text;
      } else {
        stderr += text;
      }
      for (const line of text.split(/\r?\n/)) {
        if (line.trim()) {
          onLine(line);
        }
      }
    };
    child.stdout.on("data", (c: Buffer) => lines(c, "out"));
    child.stderr.on("data", (c: Buffer) => lines(c, "err"));
    child.on("error", (e) => finish({ code: null, stdout, stderr, error: e.message }));
    child.on("close", (code) => finish({ code, stdout, stderr }));
  });
}
