/**
 * Finding the burnlint language server to run.
 *
 * Order:
 *  1. `burnlint.path` (an executable, run as `<path> server`);
 *  2. `burnlint.interpreter` (a Python with burnlint, run as `<python> -m burnlint server`);
 *  3. `burnlint` in a workspace folder's `.venv` or `venv` (trusted workspaces only);
 *  4. `burnlint` on PATH;
 *  5. otherwise the caller falls back to the managed environment (managedEnv.ts).
 *
 * An explicit setting that does not work is an error (with a hint), never silently skipped.
 * This module has no runtime dependency on `vscode`; it is unit-tested in plain Node.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

export type ServerSource = "path setting" | "interpreter setting" | "workspace venv" | "PATH" | "managed environment";

/** A server to start: `command args...` over stdio. */
export interface ServerCommand {
  command: string;
  args: string[];
  source: ServerSource;
  /** burnlint's version as reported by the probe, if known. */
  version?: string;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Set when the process could not be started at all (ENOENT, EACCES...). */
  error?: string;
}

/** Everything resolution needs from the outside world (injected for tests). */
export interface Host {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  isFile(p: string): Promise<boolean>;
  run(command: string, args: string[], timeoutMs: number): Promise<RunResult>;
}

export interface ResolutionInput {
  /** `burnlint.path`, variables already expanded ("" = unset). */
  path: string;
  /** `burnlint.interpreter`, variables already expanded ("" = unset). */
  interpreter: string;
  workspaceFolders: string[];
  /** Workspace trust: an untrusted workspace's venv is never executed. */
  trusted: boolean;
}

export type Resolution =
  | { kind: "found"; server: ServerCommand; log: string[] }
  | { kind: "error"; message: string; setting?: string; log: string[] }
  | { kind: "notFound"; log: string[] };

export const PROBE_TIMEOUT_MS = 20_000;
export const MIN_PYTHON: readonly [number, number] = [3, 10];

/**
 * Python snippet printing `<burnlint version> <python major.minor>`; exit code 3 when burnlint is
 * missing, 4 when burnlint has no language server (too old), 5 when Python is too old.
 */
export const PYTHON_PROBE = [
  "import sys",
  `if sys.version_info < (${MIN_PYTHON[0]}, ${MIN_PYTHON[1]}): print('python', '%d.%d' % sys.version_info[:2]); sys.exit(5)`,
  "import importlib.util as u",
  "sys.exit(3) if u.find_spec('burnlint') is None else None",
  "import burnlint",
  "sys.exit(4) if u.find_spec('burnlint.lsp') is None else None",
  "print(getattr(burnlint, '__version__', '?'), '%d.%d' % sys.version_info[:2])",
].join("\n");

export async function resolveServer(input: ResolutionInput, host: Host): Promise<Resolution> {
  const log: string[] = [];
  if (input.path) {
    const exe = await findExecutable(input.path, host);
    if (!exe) {
      return {
        kind: "error",
        setting: "burnlint.path",
        message: `burnlint.path is set to "${input.path}", but no executable exists there. Fix or clear the setting.`,
        log,
      };
    }
    const version = await probeExecutable(exe, host);
    if (!version.ok) {
      return {
        kind: "error",
        setting: "burnlint.path",
        message: `burnlint.path "${exe}" does not run as burnlint (\`${path.basename(exe)} --version\` failed: ${version.detail}). Fix or clear the setting.`,
        log,
      };
    }
    log.push(`using burnlint.path: ${exe} (burnlint ${version.version})`);
    return { kind: "found", server: { command: exe, args: ["server"], source: "path setting", version: version.version }, log };
  }

  if (input.interpreter) {
    const python = await findExecutable(input.interpreter, host);
    if (!python) {
      return {
        kind: "error",
        setting: "burnlint.interpreter",
        message: `burnlint.interpreter is set to "${input.interpreter}", but no executable exists there. Fix or clear the setting.`,
        log,
      };
    }
    const probe = await probePython(python, host);
    if (!probe.ok) {
      return { kind: "error", setting: "burnlint.interpreter", message: `burnlint.interpreter "${python}": ${probe.detail}`, log };
    }
    log.push(`using burnlint.interpreter: ${python} (burnlint ${probe.version}, Python ${probe.python})`);
    return {
      kind: "found",
      server: { command: python, args: ["-m", "burnlint", "server"], source: "interpreter setting", version: probe.version },
      log,
    };
  }

  if (input.trusted) {
    for (const folder of input.workspaceFolders) {
      for (const venv of [".venv", "venv"]) {
        const exe = venvExecutable(path.join(folder, venv), "burnlint", host.platform);
        if (!(await host.isFile(exe))) {
          continue;
        }
        const version = await probeExecutable(exe, host);
        if (version.ok) {
          log.push(`using the workspace's ${exe} (burnlint ${version.version})`);
          return { kind: "found", server: { command: exe, args: ["server"], source: "workspace venv", version: version.version }, log };
        }
        log.push(`skipping ${exe}: ${version.detail}`);
      }
    }
  } else if (input.workspaceFolders.length > 0) {
    log.push("workspace is not trusted: not looking for burnlint in its .venv/venv");
  }

  const onPath = await which("burnlint", host);
  if (onPath) {
    const version = await probeExecutable(onPath, host);
    if (version.ok) {
      log.push(`using burnlint from PATH: ${onPath} (burnlint ${version.version})`);
      return { kind: "found", server: { command: onPath, args: ["server"], source: "PATH", version: version.version }, log };
    }
    log.push(`skipping ${onPath} from PATH: ${version.detail}`);
  } else {
    log.push("no burnlint on PATH");
  }
  return { kind: "notFound", log };
}

/** `<venv>/bin/<name>` or `<venv>\Scripts\<name>.exe`. */
export function venvExecutable(venv: string, name: string, platform: NodeJS.Platform): string {
  return platform === "win32" ? path.join(venv, "Scripts", `${name}.exe`) : path.join(venv, "bin", name);
}

/** Resolves a configured executable: an existing file path, or a bare name looked up on PATH. */
export async function findExecutable(value: string, host: Host): Promise<string | undefined> {
  const hasSeparator = value.includes("/") || value.includes("\\");
  if (hasSeparator || path.isAbsolute(value)) {
    if (await host.isFile(value)) {
      return value;
    }
    if (host.platform === "win32" && !/\.[a-z0-9]+$/i.test(value) && (await host.isFile(`${value}.exe`))) {
      return `${value}.exe`;
    }
    return undefined;
  }
  return which(value, host);
}

/** Like `which`: the first match of `name` on PATH (honouring PATHEXT on Windows). */
export async function which(name: string, host: Host): Promise<string | undefined> {
  const pathVar = host.env.PATH ?? host.env.Path ?? "";
  const delimiter = host.platform === "win32" ? ";" : ":";
  const exts =
    host.platform === "win32" ? ["", ...(host.env.PATHEXT ?? ".EXE;.CMD;.BAT;.COM").split(";").filter(Boolean).map((e) => e.toLowerCase())] : [""];
  for (const dir of pathVar.split(delimiter)) {
    if (!dir) {
      continue;
    }
    for (const ext of exts) {
      const candidate = path.join(dir, name + ext);
      if (await host.isFile(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

type Probe = { ok: true; version: string } | { ok: false; detail: string };

/** Runs `<exe> --version`; expects `burnlint X.Y.Z`. */
export async function probeExecutable(exe: string, host: Host): Promise<Probe> {
  const r = await host.run(exe, ["--version"], PROBE_TIMEOUT_MS);
  if (r.error) {
    return { ok: false, detail: r.error };
  }
  const m = /burnlint\s+(\S+)/.exec(r.stdout + r.stderr);
  if (r.code !== 0 || !m) {
    return { ok: false, detail: `exit code ${r.code}: ${lastLine(r.stderr || r.stdout) || "no output"}` };
  }
  return { ok: true, version: m[1] };
}

export type PythonProbe = { ok: true; version: string; python: string } | { ok: false; detail: string; reason: "start" | "missing" | "old-burnlint" | "old-python" | "other" };

/** Checks that `python` is >= 3.10 and has burnlint with its language server. */
export async function probePython(python: string, host: Host): Promise<PythonProbe> {
  const r = await host.run(python, ["-c", PYTHON_PROBE], PROBE_TIMEOUT_MS);
  if (r.error) {
    return { ok: false, reason: "start", detail: `cannot run it (${r.error}).` };
  }
  switch (r.code) {
    case 0: {
      const [version, py] = r.stdout.trim().split(/\s+/);
      return { ok: true, version: version ?? "?", python: py ?? "?" };
    }
    case 3:
      return {
        ok: false,
        reason: "missing",
        detail: `burnlint is not installed in this Python. Run \`"${python}" -m pip install burnlint\`, or clear the setting to let the extension manage its own environment.`,
      };
    case 4:
      return {
        ok: false,
        reason: "old-burnlint",
        detail: `the installed burnlint has no language server. Run \`"${python}" -m pip install -U burnlint\`.`,
      };
    case 5:
      return {
        ok: false,
        reason: "old-python",
        detail: `Python ${r.stdout.trim().split(/\s+/)[1] ?? "?"} is too old; burnlint needs Python >= ${MIN_PYTHON.join(".")}.`,
      };
    default:
      return { ok: false, reason: "other", detail: `the check failed (exit code ${r.code}): ${lastLine(r.stderr || r.stdout) || "no output"}` };
  }
}

function lastLine(text: string): string {
  const lines = text.trim().split(/\r?\n/);
  return lines[lines.length - 1] ?? "";
}

/** The real host: node's fs and child_process. */
export function nodeHost(env: Record<string, string | undefined> = process.env): Host {
  return {
    platform: process.platform,
    env,
    async isFile(p: string): Promise<boolean> {
      try {
        const st = await fs.promises.stat(p);
        if (!st.isFile()) {
          return false;
        }
        if (process.platform !== "win32") {
          await fs.promises.access(p, fs.constants.X_OK);
        }
        return true;
      } catch {
        return false;
      }
    },
    run: (command, args, timeoutMs) => runProcess(command, args, timeoutMs, env),
  };
}

export function runProcess(command: string, args: string[], timeoutMs: number, env: Record<string, string | undefined> = process.env): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: timeoutMs, env: env as NodeJS.ProcessEnv, windowsHide: true, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error && typeof error.code === "string") {
        resolve({ code: null, stdout: String(stdout), stderr: String(stderr), error: `${error.code}: ${error.message}` });
        return;
      }
      if (error && error.killed) {
        resolve({ code: null, stdout: String(stdout), stderr: String(stderr), error: `timed out after ${timeoutMs / 1000} s` });
        return;
      }
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}
