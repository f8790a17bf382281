/**
 * Settings of the extension.
 *
 * Two groups live in the `burnlint` section:
 * - server settings (SERVER_SETTINGS), which the language server reads through
 *   `workspace/configuration` and `workspace/didChangeConfiguration`;
 * - client settings (CLIENT_SETTINGS), which only decide how the server is started.
 *
 * This module has no runtime dependency on `vscode`, so it is unit-tested in plain Node.
 */
import * as os from "node:os";
import * as path from "node:path";

export const SECTION = "burnlint";

/** A JSON value as it appears in settings. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * The server's settings with their defaults. Must match `server/burnlint/lsp/settings.py` and the
 * `contributes.configuration` of package.json (checked by `npm test` and
 * `tests/editors/test_vscode_settings.py`).
 */
export const SERVER_SETTINGS: Readonly<Record<string, Json>> = Object.freeze({
  enable: true,
  severity: {},
  ignore: [],
  scope: "openFiles",
  unsafeFixes: true,
  era: "auto",
  logLevel: "warning",
  docsUrl: "",
  inlayHints: "dispatch",
});

/** Settings only the extension reads. Changing `path` or `interpreter` restarts the server. */
export const CLIENT_SETTINGS = ["path", "interpreter", "trace.server"] as const;
export const RESTART_SETTINGS = ["path", "interpreter"] as const;

/** The subset of `vscode.WorkspaceConfiguration` this module needs. */
export interface ConfigLike {
  get<T>(section: string): T | undefined;
}

/** What `${...}` variables expand to. */
export interface VariableContext {
  workspaceFolder?: string;
  userHome?: string;
  env?: Record<string, string | undefined>;
}

/**
 * Expands `${workspaceFolder}`, `${userHome}`, `${env:NAME}` and a leading `~`, and makes a
 * relative path absolute against the first workspace folder. Returns "" for an empty value.
 */
export function resolveVariables(value: string, ctx: VariableContext = {}): string {
  let out = value.trim();
  if (!out) {
    return "";
  }
  const home = ctx.userHome ?? os.homedir();
  const env = ctx.env ?? process.env;
  out = out.replace(/\$\{(workspaceFolder|userHome|env:([A-Za-z_][A-Za-z0-9_]*))\}/g, (m, name: string, envName?: string) => {
    if (name === "userHome") {
      return home;
    }
    if (name === "workspaceFolder") {
      return ctx.workspaceFolder ?? m;
    }
    return env[envName ?? ""] ?? "";
  });
  if (out === "~") {
    out = home;
  } else if (out.startsWith("~/") || out.startsWith("~\\")) {
    out = path.join(home, out.slice(2));
  }
  // A bare command name (no separator) is looked up on PATH later; keep it as is.
  const looksLikePath = out.includes("/") || out.includes("\\");
  if (looksLikePath && !path.isAbsolute(out) && ctx.workspaceFolder && !out.includes("${")) {
    out = path.resolve(ctx.workspaceFolder, out);
  }
  return out;
}

/** The client-side settings, with variables expanded. */
export interface ClientSettings {
  path: string;
  interpreter: string;
}

export function readClientSettings(config: ConfigLike, ctx: VariableContext = {}): ClientSettings {
  return {
    path: resolveVariables(asString(config.get("path")), ctx),
    interpreter: resolveVariables(asString(config.get("interpreter")), ctx),
  };
}

/**
 * The server settings for one scope: every key of SERVER_SETTINGS, the configured value when it
 * has the right JSON type, else the default. Client settings are left out.
 */
export function serverSettings(config: ConfigLike): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [key, fallback] of Object.entries(SERVER_SETTINGS)) {
    const value = config.get<Json>(key);
    out[key] = value !== undefined && sameJsonType(value, fallback) ? clone(value) : clone(fallback);
  }
  return out;
}

/** True when a configuration change needs a server restart (a different server executable). */
export function needsRestart(affects: (section: string) => boolean): boolean {
  return RESTART_SETTINGS.some((key) => affects(`${SECTION}.${key}`));
}

/** True when a configuration change concerns the server's settings. */
export function affectsServerSettings(affects: (section: string) => boolean): boolean {
  return Object.keys(SERVER_SETTINGS).some((key) => affects(`${SECTION}.${key}`));
}

export function jsonType(value: Json): "null" | "boolean" | "number" | "string" | "array" | "object" {
  if (value === null) {
    return "null";
  }
  if (Array.isArray(value)) {
    return "array";
  }
  return typeof value as "boolean" | "number" | "string" | "object";
}

function sameJsonType(value: Json, fallback: Json): boolean {
  return jsonType(value) === jsonType(fallback);
}

function asString(value: unknown): string {
  if (typeof value === "string") {
    return value;
  }
  // Accept the array form other Python-tool extensions use: the first non-empty entry.
  if (Array.isArray(value)) {
    const first = value.find((v) => typeof v === "string" && v.trim());
    return typeof first === "string" ? first : "";
  }
  return "";
}

function clone<T extends Json>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
