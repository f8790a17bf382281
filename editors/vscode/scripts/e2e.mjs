// Drives code-server (real VS Code UI) with headless Debian chromium through playwright-core and
// checks burnlint end to end on examples/dispatch-demo/src/quant.rs.
//
//   node scripts/e2e.mjs --url http://127.0.0.1:PORT --folder /tmp/ws/dispatch-demo --shots DIR
//        [--readme-image images/hover.png] [--logs USER_DATA_DIR] [--chromium /usr/bin/chromium]
//        [--scenario configured|managed] [--storage GLOBAL_STORAGE_DIR]
//
// Prints one line per check, then "N passed, M failed"; exit code 1 when anything failed.
// Screenshots of failures go to --shots.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";

const { values: opt } = parseArgs({
  options: {
    url: { type: "string" },
    folder: { type: "string" },
    shots: { type: "string", default: "e2e-screenshots" },
    "readme-image": { type: "string" },
    logs: { type: "string" },
    chromium: { type: "string", default: "/usr/bin/chromium" },
    // "configured": burnlint.interpreter is set (all checks). "managed": nothing is configured and
    // nothing is installed, so the extension builds its managed environment (--storage: where).
    scenario: { type: "string", default: "configured" },
    storage: { type: "string" },
  },
});
if (!opt.url || !opt.folder) {
  console.error("usage: e2e.mjs --url URL --folder DIR [--shots DIR] [--readme-image PNG] [--logs DIR]");
  process.exit(2);
}

const FILE = "src/quant.rs";
const SEED_LINE = 16;
const SEED_TEXT = "let out = dispatch::q_matmul(autodiff_lhs, q_rhs, DispatchAutodiffContext::Disabled);";
const KB_TEXT = "an autodiff float primitive must have an enabled autodiff context";
const FIXED_TEXT = "DispatchAutodiffContext::Enabled(";
const TRAIN_FIXED = "let balanced = device;";
// Hints quant.rs gets in its crate with `burnlint.inlayHints` "dispatch" (tests/lsp checks lines
// 13 and 14 too): line -> a label on it.
const HINTS = { 13: "device: autodiff", 14: "autodiff", 26: "device: autodiff", 30: "autodiff" };
const PANIC = `thread 'main' panicked at crates/burn-dispatch/src/ops.rs:88:9:\n${KB_TEXT}`;

fs.mkdirSync(opt.shots, { recursive: true });
const t0 = Date.now();
const secs = () => ((Date.now() - t0) / 1000).toFixed(1).padStart(5);
const results = [];
let page;

/** Runs one check: records pass/fail with its time, screenshots a failure. */
async function check(name, fn) {
  const start = Date.now();
  try {
    const detail = await fn();
    results.push({ name, ok: true });
    console.log(`[${secs()}s] PASS ${name} (${((Date.now() - start) / 1000).toFixed(1)}s)${detail ? `: ${detail}` : ""}`);
    return true;
  } catch (error) {
    results.push({ name, ok: false });
    const shot = path.join(opt.shots, `fail-${results.length}-${name.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}.png`);
    await page?.screenshot({ path: shot }).catch(() => undefined);
    console.log(`[${secs()}s] FAIL ${name} (${((Date.now() - start) / 1000).toFixed(1)}s): ${String(error?.message ?? error).split("\n")[0]}`);
    console.log(`         screenshot: ${shot}`);
    return false;
  }
}

const norm = (s) => (s ?? "").replace(/\u00a0/g, " ");

/**
 * Editor line `n` (1-based, visible) as the view renders it: its text without the inlay hints,
 * the hints' labels (VS Code draws them as injected text styled by dynamic `dyn-rule-*`
 * classes), and its HTML (to explain a failure); null when the line is not shown.
 */
async function lineParts(n) {
  return page.evaluate((n) => {
    const editor = document.querySelector(".editor-instance .monaco-editor") ?? document.querySelector(".monaco-editor");
    const numbers = [...editor.querySelectorAll(".margin-view-overlays .line-numbers")];
    const num = numbers.find((el) => el.textContent.trim() === String(n));
    if (!num) {
      return null;
    }
    const y = num.getBoundingClientRect().top;
    const line = [...editor.querySelectorAll(".view-lines .view-line")].find((el) => Math.abs(el.getBoundingClientRect().top - y) < 3);
    if (!line) {
      return null;
    }
    const hints = [...line.querySelectorAll("span[class*='dyn-rule-']")];
    const code = line.cloneNode(true);
    code.querySelectorAll("span[class*='dyn-rule-']").forEach((el) => el.remove());
    return {
      text: code.textContent,
      hints: hints.map((el) => el.textContent.replace(/\u00a0/g, " ").trim()).filter(Boolean),
      html: line.outerHTML.slice(0, 1500),
    };
  }, n);
}

/** Text of editor line `n` (1-based), read from the rendered view (line must be visible). */
async function lineText(n) {
  return (await lineParts(n))?.text ?? null;
}

/** Polls editor line `n` until it contains `text`; returns the line. */
async function waitForLine(n, text, timeout) {
  const deadline = Date.now() + timeout;
  let line = "";
  while (Date.now() < deadline) {
    line = norm(await lineText(n));
    if (line.includes(text)) {
      return line;
    }
    await page.waitForTimeout(200);
  }
  throw new Error(`line ${n} is ${JSON.stringify(line)}, expected ${JSON.stringify(text)}`);
}

/** Vertical center of editor line `n`, or null. */
async function lineBox(n) {
  return page.evaluate((n) => {
    const editor = document.querySelector(".editor-instance .monaco-editor") ?? document.querySelector(".monaco-editor");
    const num = [...editor.querySelectorAll(".margin-view-overlays .line-numbers")].find((el) => el.textContent.trim() === String(n));
    if (!num) {
      return null;
    }
    const r = num.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom };
  }, n);
}

async function goToLine(line, column) {
  await page.keyboard.press("Control+G");
  await page.waitForSelector(".quick-input-widget input", { state: "visible", timeout: 10000 });
  await page.keyboard.type(`${line}:${column}`);
  await page.keyboard.press("Enter");
  await page.waitForTimeout(150);
}

async function runCommand(title) {
  await page.keyboard.press("F1");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible", timeout: 10000 });
  await input.fill(`>${title}`);
  const row = page.locator(".quick-input-list .monaco-list-row", { hasText: title }).first();
  await row.waitFor({ timeout: 10000 });
  await page.keyboard.press("Enter");
}

/** Waits for a webview frame (the Markdown preview) whose text contains every string. */
async function waitForPreview(strings, timeout = 20000) {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if (frame === page.mainFrame()) {
        continue;
      }
      const text = await frame.evaluate(() => document.body?.innerText ?? "").catch(() => "");
      if (text && strings.every((s) => text.includes(s))) {
        return text;
      }
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`no preview frame shows ${JSON.stringify(strings)}`);
}

/** The burnlint output channel's log files under --logs (plus the extension host logs). */
function extensionLogs(withHost = false) {
  const logs = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name === "burnlint.log" || (withHost && entry.name === "exthost.log")) logs.push(p);
    }
  };
  try {
    if (opt.logs) walk(path.join(opt.logs, "logs"));
  } catch {
    // no logs yet
  }
  return logs;
}

/** Opens `rel` with Quick Open, or activates its tab when it is already open. */
async function openFile(rel) {
  const base = path.basename(rel);
  const tab = page.locator(".tabs-container .tab", { hasText: base }).first();
  if (await tab.count()) {
    await tab.click();
  } else {
    await page.keyboard.press("Control+P");
    const input = page.locator(".quick-input-widget input");
    await input.waitFor({ state: "visible", timeout: 10000 });
    await input.fill(rel);
    // Wait until the filtered list has the file focused; Enter on a stale list opens the wrong one.
    await page.locator(".quick-input-list .monaco-list-row.focused", { hasText: base }).first().waitFor({ timeout: 10000 });
    await page.keyboard.press("Enter");
  }
  await page.locator(".tabs-container .tab.active", { hasText: base }).first().waitFor({ timeout: 10000 });
  await page.waitForSelector(".editor-instance .monaco-editor .view-lines", { timeout: 20000 });
}

const browser = await chromium.launch({
  executablePath: opt.chromium,
  headless: true,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
    "--disable-dev-shm-usage",
  ],
});
try {
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: opt.url }).catch(() => undefined);

  const workbench = await check("workbench loads with the example crate", async () => {
    await page.goto(`${opt.url}/?folder=${encodeURIComponent(opt.folder)}`);
    await page.waitForSelector(".monaco-workbench", { timeout: 60000 });
    await page.waitForSelector(".explorer-folders-view, .explorer-viewlet", { timeout: 60000 });
  });

  const opened =
    workbench &&
    (await check(`opens ${FILE}`, async () => {
      await page.locator(".monaco-workbench").click({ position: { x: 700, y: 450 } }).catch(() => undefined);
      await openFile(FILE);
      const text = norm(await lineText(SEED_LINE));
      if (!text.includes(SEED_TEXT)) {
        throw new Error(`line ${SEED_LINE} is ${JSON.stringify(text)}`);
      }
    }));

  const managed = opt.scenario === "managed";
  if (managed && opened) {
    await check("a progress notification shows the managed environment being set up", async () => {
      const toast = page.locator(".notification-toast, .notifications-toasts .monaco-list-row", { hasText: "setting up its Python environment" }).first();
      await toast.waitFor({ timeout: 60000 });
      return norm(await toast.innerText()).replace(/\s+/g, " ").slice(0, 120);
    });
  }

  if (opened) {
    await check("status bar shows the burnlint server running", async () => {
      const item = page.locator(".statusbar-item", { hasText: "burnlint" }).first();
      await item.waitFor({ timeout: 60000 });
      await page.locator(".statusbar-item:has-text('burnlint') .codicon-check").first().waitFor({ timeout: managed ? 300000 : 60000 });
      return norm(await item.innerText()).trim();
    });

    await check(`the server came from ${managed ? "the managed environment" : "burnlint.interpreter"}`, async () => {
      const expected = managed ? "starting: " + path.join(opt.storage ?? "", "venv") : "using burnlint.interpreter:";
      const deadline = Date.now() + 15000;
      let text = "";
      while (Date.now() < deadline) {
        text = extensionLogs().map((f) => fs.readFileSync(f, "utf8")).join("\n");
        const line = text.split("\n").find((l) => l.includes(expected));
        if (line) {
          return line.replace(/^.*\[info\] /, "");
        }
        await page.waitForTimeout(300);
      }
      throw new Error(`no "${expected}" in the extension log: ${JSON.stringify(text.split("\n").filter((l) => /\[(info|error|warning)\]/.test(l)).slice(0, 5))}`);
    });
  }

  if (managed && opt.storage) {
    await check("the managed environment is in the extension's global storage", async () => {
      const marker = path.join(opt.storage, "venv", "burnlint-managed.json");
      const data = JSON.parse(fs.readFileSync(marker, "utf8"));
      return `${marker}: burnlint ${data.version} on Python ${data.python}`;
    });
  }

  let squiggle = false;
  if (opened) {
    squiggle = await check(`BD001 squiggle on line ${SEED_LINE}`, async () => {
      const selector = ".editor-instance .monaco-editor .view-overlays .squiggly-error, .editor-instance .monaco-editor .view-overlays .squiggly-warning, .editor-instance .monaco-editor .view-overlays .squiggly-info";
      await page.waitForSelector(selector, { timeout: 60000 });
      const box = await lineBox(SEED_LINE);
      const squiggles = await page.locator(selector).evaluateAll((els) => els.map((el) => {
        const r = el.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, cls: el.className };
      }));
      const onLine = squiggles.filter((s) => box && s.top >= box.top - 3 && s.bottom <= box.bottom + 3);
      if (!onLine.length) {
        throw new Error(`no squiggle on line ${SEED_LINE}: ${JSON.stringify({ box, squiggles })}`);
      }
      return onLine.map((s) => s.cls.split(" ").find((c) => c.startsWith("squiggly-"))).join(",");
    });

    await check("Problems panel lists BD001 at Ln 16", async () => {
      await page.keyboard.press("Control+Shift+M");
      const row = page.locator(".markers-panel .monaco-list-row", { hasText: "BD001" }).first();
      await row.waitFor({ timeout: 20000 });
      const text = norm(await row.innerText()).replace(/\s+/g, " ");
      if (!text.includes(`Ln ${SEED_LINE},`) || !/burnlint/.test(text)) {
        throw new Error(`row is ${JSON.stringify(text)}`);
      }
      await page.keyboard.press("Control+Shift+M"); // toggle the panel off again
      return text;
    });

  }
  if (opened && managed) {
    await check("Apply All Safe Fixes fixes quant.rs", async () => {
      await openFile(FILE);
      await page.locator(".editor-instance .monaco-editor .view-lines").click();
      await runCommand("burnlint: Apply All Safe Fixes");
      const text = await waitForLine(SEED_LINE, FIXED_TEXT, 20000);
      return text.trim();
    });

    await check("fix-all on save (source.fixAll.burnlint) saves train.rs without its unsafe BD004 fix", async () => {
      // BD004's fix in train.rs drops the `Balanced` strategy the call asks for, so it is
      // unsafe: saving must write the user's edit and leave line 25 as it was.
      await openFile("src/train.rs");
      await page.locator(".editor-instance .monaco-editor .view-lines").click();
      await goToLine(25, 1);
      const squiggles = ".editor-instance .monaco-editor .view-overlays [class*='squiggly-']";
      await page.waitForSelector(squiggles, { timeout: 30000 });
      const file = path.join(opt.folder, "src", "train.rs");
      const before = fs.readFileSync(file, "utf8");
      await page.keyboard.press("Control+End");
      await page.keyboard.press("Enter"); // make the file dirty
      await page.keyboard.press("Control+S");
      const deadline = Date.now() + 20000;
      while (Date.now() < deadline) {
        const disk = fs.readFileSync(file, "utf8");
        if (disk !== before) {
          const line = disk.split("\n")[24] ?? "";
          if (line !== before.split("\n")[24]) {
            throw new Error(`the unsafe fix was applied on save: ${JSON.stringify(line)}`);
          }
          if (line.includes(TRAIN_FIXED)) {
            throw new Error(`line 25 lost its strategy: ${JSON.stringify(line)}`);
          }
          return `saved; line 25 kept: ${line.trim()}`;
        }
        await page.waitForTimeout(250);
      }
      throw new Error("train.rs was not saved");
    });
  }
  if (opened && !managed) {
    await check("inlay hints show the tensor states in quant.rs", async () => {
      // The hints as the DOM has them, per line (see lineParts).
      const deadline = Date.now() + 20000;
      let found = {};
      while (Date.now() < deadline) {
        found = {};
        for (const line of Object.keys(HINTS)) {
          found[line] = (await lineParts(Number(line)))?.hints ?? [];
        }
        if (Object.entries(HINTS).every(([line, label]) => found[line].includes(label))) {
          break;
        }
        await page.waitForTimeout(250);
      }
      const missing = Object.entries(HINTS).filter(([line, label]) => !found[line].includes(label));
      if (missing.length) {
        throw new Error(`missing hints ${JSON.stringify(missing)}; lines show ${JSON.stringify(found)}; line 14: ${(await lineParts(14))?.html}`);
      }
      await page.screenshot({ path: path.join(opt.shots, "inlay-hints.png") });
      return Object.entries(found).map(([line, labels]) => `${line}: ${labels.join(", ")}`).join("; ");
    });

    await check("hover on the tensor argument shows its state above the knowledge-base entry", async () => {
      await page.locator(".editor-instance .monaco-editor .view-lines").click();
      await page.keyboard.press("Control+B"); // hide the side bar: a wider editor for the picture
      await page.waitForTimeout(200);
      await goToLine(SEED_LINE, SEED_TEXT.indexOf("autodiff_lhs") + 7); // inside `autodiff_lhs`
      await page.keyboard.press("Control+K");
      await page.keyboard.press("Control+I");
      const hover = page.locator(".monaco-hover", { hasText: KB_TEXT }).first();
      await hover.waitFor({ timeout: 20000 });
      const text = norm(await hover.innerText());
      if (!text.includes("autodiff-in-disabled-context")) {
        throw new Error(`hover lacks the KB header: ${JSON.stringify(text.slice(0, 300))}`);
      }
      const state = text.indexOf("burnlint · autodiff_lhs: autodiff");
      if (state < 0 || state > text.indexOf("autodiff-in-disabled-context")) {
        throw new Error(`hover lacks the argument's state above the entry: ${JSON.stringify(text.slice(0, 300))}`);
      }
      await page.waitForTimeout(300); // let the hover finish rendering for the picture
      if (opt["readme-image"]) {
        const editor = await page.locator(".editor-instance").first().boundingBox();
        const clip = editor ? { x: Math.max(0, editor.x), y: Math.max(0, editor.y - 35), width: Math.min(1100, editor.width), height: Math.min(720, editor.height + 35) } : undefined;
        fs.mkdirSync(path.dirname(opt["readme-image"]), { recursive: true });
        await page.screenshot({ path: opt["readme-image"], clip });
      }
      await page.keyboard.press("Escape");
      return `${text.length} characters`;
    });

    await check("Explain on the diagnostic opens a BD001 preview", async () => {
      await goToLine(SEED_LINE, 20);
      await runCommand("burnlint: Explain Problem or Panic");
      await page.locator(".tab", { hasText: "BD001" }).first().waitFor({ timeout: 20000 });
      const text = await waitForPreview(["BD001", "autodiff-in-disabled-context"]);
      return `preview tab "Preview BD001.md", ${text.length} characters`;
    });

    await check("quick fix enables the autodiff context", async () => {
      await openFile(FILE);
      await page.locator(".editor-instance .monaco-editor .view-lines").click();
      await goToLine(SEED_LINE, 20);
      await page.keyboard.press("Control+.");
      const widget = page.locator(".action-widget");
      await widget.locator(".monaco-list-row", { hasText: "burnlint (BD001)" }).first().waitFor({ timeout: 20000 });
      const titles = (await widget.locator(".monaco-list-row").allInnerTexts()).map((t) => norm(t).trim()).filter(Boolean);
      const title = titles.find((t) => t.startsWith("burnlint (BD001)") && /enable/i.test(t)) ?? titles.find((t) => t.startsWith("burnlint (BD001)"));
      await widget.locator(".monaco-list-row", { hasText: title }).first().click();
      const deadline = Date.now() + 10000;
      let text = "";
      while (Date.now() < deadline) {
        text = norm(await lineText(SEED_LINE));
        if (text.includes(FIXED_TEXT)) {
          return `"${title}" -> ${text.trim()}`;
        }
        await page.waitForTimeout(200);
      }
      throw new Error(`after "${title}" (of ${JSON.stringify(titles)}) line ${SEED_LINE} is ${JSON.stringify(text)}`);
    });

    await check("the BD001 squiggle goes away after the fix", async () => {
      const box = await lineBox(SEED_LINE);
      if (!box || !norm(await lineText(SEED_LINE)).includes(FIXED_TEXT)) {
        throw new Error(`line ${SEED_LINE} is not the fixed line`);
      }
      const deadline = Date.now() + 20000;
      while (Date.now() < deadline) {
        const left = await page.locator(".editor-instance .monaco-editor .view-overlays [class*='squiggly-']").evaluateAll(
          (els, box) => els.filter((el) => { const r = el.getBoundingClientRect(); return box && r.top >= box.top - 3 && r.bottom <= box.bottom + 3; }).length,
          box,
        );
        if (left === 0) {
          return;
        }
        await page.waitForTimeout(250);
      }
      throw new Error("a squiggle is still on the fixed line");
    });

    await check("Explain of a pasted panic opens a BD001 preview", async () => {
      await page.keyboard.press("Control+Home"); // a line without a diagnostic: the input box asks
      await runCommand("burnlint: Explain Problem or Panic");
      const input = page.locator(".quick-input-widget input");
      await page.locator(".quick-input-widget", { hasText: "burn panic message" }).first().waitFor({ timeout: 10000 });
      await input.fill(PANIC.replace("\n", " "));
      await page.keyboard.press("Enter");
      const text = await waitForPreview(["BD001", KB_TEXT]);
      return `${text.length} characters`;
    });
  }
  if (!squiggle) {
    // Show the extension's log to explain a missing diagnostic.
    for (const log of extensionLogs(true)) {
      console.log(`--- ${log} (last 40 lines)`);
      console.log(fs.readFileSync(log, "utf8").split("\n").slice(-40).join("\n"));
    }
  }
} finally {
  await browser.close().catch(() => undefined);
}
const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed;
console.log(`browser checks took ${((Date.now() - t0) / 1000).toFixed(1)}s`);
if (failed) {
  console.log(`screenshots of failures: ${path.resolve(opt.shots)}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
