import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";

import {
  CLIENT_SETTINGS,
  ConfigLike,
  SECTION,
  SERVER_SETTINGS,
  affectsServerSettings,
  jsonType,
  needsRestart,
  readClientSettings,
  resolveVariables,
  serverSettings,
} from "../settings";

function config(values: Record<string, unknown>): ConfigLike {
  return { get: <T>(key: string) => values[key] as T | undefined };
}

// out/test/*.js -> package.json two levels up (also true for src/test/*.ts).
const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")) as {
  contributes: { configuration: { properties: Record<string, { type: string; default: unknown; enum?: string[] }> } };
};
const properties = pkg.contributes.configuration.properties;

describe("package.json settings", () => {
  it("contributes exactly the server settings plus the client settings", () => {
    const expected = [...Object.keys(SERVER_SETTINGS), ...CLIENT_SETTINGS].map((k) => `${SECTION}.${k}`).sort();
    assert.deepEqual(Object.keys(properties).sort(), expected);
  });

  it("has the same defaults and JSON types as SERVER_SETTINGS", () => {
    for (const [key, value] of Object.entries(SERVER_SETTINGS)) {
      const prop = properties[`${SECTION}.${key}`];
      assert.deepEqual(prop.default, value, key);
      assert.equal(prop.type, jsonType(value), key);
      if (prop.enum) {
        assert.ok(prop.enum.includes(value as string), `${key}: default ${String(value)} not in enum`);
      }
    }
  });

  it("gives every setting a description", () => {
    for (const [key, prop] of Object.entries(properties)) {
      const p = prop as { description?: string; markdownDescription?: string };
      assert.ok((p.description ?? p.markdownDescription ?? "").length > 10, key);
    }
  });
});

describe("serverSettings", () => {
  it("fills in defaults and drops client-only keys", () => {
    const out = serverSettings(config({ path: "/x/burnlint", interpreter: "/py", "trace.server": "verbose" }));
    assert.deepEqual(out, SERVER_SETTINGS);
    assert.equal("path" in out, false);
  });

  it("keeps configured values of the right type", () => {
    const out = serverSettings(config({ enable: false, severity: { BD002: "warning" }, ignore: ["BD006"], scope: "workspace", era: "context" }));
    assert.equal(out.enable, false);
    assert.deepEqual(out.severity, { BD002: "warning" });
    assert.deepEqual(out.ignore, ["BD006"]);
    assert.equal(out.scope, "workspace");
    assert.equal(out.era, "context");
  });

  it("replaces values of the wrong JSON type with the default", () => {
    const out = serverSettings(config({ enable: "yes", ignore: "BD001", severity: ["x"], docsUrl: 3 }));
    assert.equal(out.enable, true);
    assert.deepEqual(out.ignore, []);
    assert.deepEqual(out.severity, {});
    assert.equal(out.docsUrl, "");
  });

  it("returns copies, not the defaults themselves", () => {
    const out = serverSettings(config({}));
    (out.ignore as string[]).push("BD001");
    assert.deepEqual(SERVER_SETTINGS.ignore, []);
  });
});

describe("resolveVariables", () => {
  const ctx = { workspaceFolder: "/ws", userHome: "/home/me", env: { VENV: "/opt/venv" } };
  it("expands variables and ~", () => {
    assert.equal(resolveVariables("${workspaceFolder}/.venv/bin/python", ctx), "/ws/.venv/bin/python");
    assert.equal(resolveVariables("${userHome}/bin/burnlint", ctx), "/home/me/bin/burnlint");
    assert.equal(resolveVariables("~/bin/burnlint", ctx), path.join("/home/me", "bin/burnlint"));
    assert.equal(resolveVariables("${env:VENV}/bin/python", ctx), "/opt/venv/bin/python");
    assert.equal(resolveVariables("${env:MISSING}x", ctx), "x");
  });
  it("makes relative paths absolute against the workspace folder", () => {
    assert.equal(resolveVariables(".venv/bin/python", ctx), path.resolve("/ws", ".venv/bin/python"));
  });
  it("leaves bare command names and empty values alone", () => {
    assert.equal(resolveVariables("python3.12", ctx), "python3.12");
    assert.equal(resolveVariables("   ", ctx), "");
  });
  it("keeps ${workspaceFolder} when there is no folder", () => {
    assert.equal(resolveVariables("${workspaceFolder}/x", { userHome: "/h" }), "${workspaceFolder}/x");
  });
});

describe("readClientSettings", () => {
  it("accepts strings and the array form", () => {
    assert.deepEqual(readClientSettings(config({ path: "", interpreter: ["", "/usr/bin/python3"] }), { userHome: "/h" }), {
      path: "",
      interpreter: "/usr/bin/python3",
    });
  });
});

describe("configuration changes", () => {
  const only = (...keys: string[]) => (s: string) => keys.some((k) => k === s || k.startsWith(`${s}.`));
  it("restarts for path and interpreter only", () => {
    assert.equal(needsRestart(only("burnlint.path")), true);
    assert.equal(needsRestart(only("burnlint.interpreter")), true);
    assert.equal(needsRestart(only("burnlint.severity")), false);
    assert.equal(needsRestart(only("burnlint.trace.server")), false);
  });
  it("pushes settings for server keys", () => {
    assert.equal(affectsServerSettings(only("burnlint.ignore")), true);
    assert.equal(affectsServerSettings(only("burnlint.path")), false);
  });
});
