/** The extension's commands: restart, show output, explain, apply all fixes; the server's status request. */
import * as vscode from "vscode";
import { ExecuteCommandRequest, LanguageClient } from "vscode-languageclient/node";

import { markdownOf, pickQuery, previewName } from "./explainQuery";
import { parseProvenance, provenanceTarget } from "./provenance";

export const COMMANDS = {
  restartServer: "burnlint.restartServer",
  showOutput: "burnlint.showOutput",
  explain: "burnlint.explain",
  applyAllFixes: "burnlint.applyAllFixes",
  /** The finding's path (origin, bindings, stores, calls, sink), asked of the server, in a peek view. */
  showProvenance: "burnlint.showProvenance",
  /** Server only: the era and notes of an open document, for the status bar tooltip. */
  status: "burnlint.status",
} as const;

/**
 * Commands the extension implements itself, or calls only through `workspace/executeCommand`,
 * even when the server also advertises them.
 */
export const CLIENT_OWNED_COMMANDS: ReadonlySet<string> = new Set([COMMANDS.explain, COMMANDS.applyAllFixes, COMMANDS.status, COMMANDS.showProvenance]);

export const FIX_ALL_KIND = vscode.CodeActionKind.SourceFixAll.append("burnlint");
export const EXPLAIN_SCHEME = "burnlint-explain";

/** What the commands need from the extension. */
export interface CommandHost {
  output: vscode.LogOutputChannel;
  restart(): Promise<void>;
  /** The running client, starting the server first if it is not running; undefined on failure. */
  readyClient(): Promise<LanguageClient | undefined>;
}

/** Read-only virtual documents holding explain results (for the Markdown preview). */
class ExplainDocuments implements vscode.TextDocumentContentProvider {
  private readonly docs = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private counter = 0;

  add(name: string, markdown: string): vscode.Uri {
    this.counter += 1;
    const uri = vscode.Uri.from({ scheme: EXPLAIN_SCHEME, path: `/${name}`, query: String(this.counter) });
    this.docs.set(uri.toString(), markdown);
    this.changed.fire(uri);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.toString()) ?? "This explanation is no longer available. Run **burnlint: Explain** again.";
  }
}

export function registerCommands(context: vscode.ExtensionContext, host: CommandHost): void {
  const docs = new ExplainDocuments();
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(EXPLAIN_SCHEME, docs),
    vscode.commands.registerCommand(COMMANDS.restartServer, () => host.restart()),
    vscode.commands.registerCommand(COMMANDS.showOutput, () => host.output.show(true)),
    vscode.commands.registerCommand(COMMANDS.explain, (arg?: unknown) => explain(host, docs, arg)),
    vscode.commands.registerCommand(COMMANDS.applyAllFixes, () => applyAllFixes(host)),
    vscode.commands.registerCommand(COMMANDS.showProvenance, (...args: unknown[]) => showProvenance(host, args)),
  );
}

/** The query from the command argument, the editor (selection, diagnostic, word), or an input box. */
async function explainQuery(arg: unknown): Promise<string | undefined> {
  if (typeof arg === "string" && arg.trim()) {
    return arg.trim();
  }
  const editor = vscode.window.activeTextEditor;
  if (editor) {
    const { document, selection } = editor;
    const cursor = selection.active;
    const wordRange = document.getWordRangeAtPosition(cursor, /[A-Za-z]{2}\d{3}/);
    const picked = pickQuery({
      selection: selection.isEmpty ? undefined : document.getText(selection),
      diagnosticsAtCursor: vscode.languages
        .getDiagnostics(document.uri)
        .filter((d) => d.range.contains(cursor))
        .map((d) => ({ source: d.source, code: d.code as string | number | { value: string | number } | undefined })),
      wordAtCursor: wordRange ? document.getText(wordRange) : undefined,
    });
    if (picked) {
      return picked;
    }
  }
  return vscode.window.showInputBox({
    title: "burnlint: Explain",
    prompt: "A code (BD001), a slug, or a burn panic message pasted from a terminal or log",
    placeHolder: "an autodiff float primitive must have an enabled autodiff context",
    ignoreFocusOut: true,
  });
}

async function explain(host: CommandHost, docs: ExplainDocuments, arg: unknown): Promise<void> {
  const query = await explainQuery(arg);
  if (!query?.trim()) {
    return;
  }
  const client = await host.readyClient();
  if (!client) {
    void vscode.window.showErrorMessage("burnlint: the language server is not running, so nothing can be explained.", "Show Output").then((choice) => {
      if (choice) {
        host.output.show(true);
      }
    });
    return;
  }
  let result: unknown;
  try {
    result = await client.sendRequest(ExecuteCommandRequest.type, { command: COMMANDS.explain, arguments: [query] });
  } catch (error) {
    // The server answers InvalidParams (-32602) when no knowledge-base entry matches.
    if ((error as { code?: number }).code === -32602) {
      result = undefined;
    } else {
      host.output.error(`burnlint.explain failed: ${String(error)}`);
      void vscode.window.showErrorMessage(`burnlint: explain failed: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
  }
  const markdown = markdownOf(result);
  if (!markdown) {
    const short = query.length > 80 ? `${query.slice(0, 77)}…` : query;
    void vscode.window.showInformationMessage(`burnlint has no knowledge-base entry for "${short}". Try a code (BD001) or the panic's message line.`);
    return;
  }
  const uri = docs.add(previewName(markdown, query), markdown);
  try {
    await vscode.commands.executeCommand("markdown.showPreview", uri);
  } catch (error) {
    // No Markdown preview (extension disabled): show the Markdown source, still read-only.
    host.output.warn(`markdown.showPreview unavailable (${String(error)}); opening the Markdown text`);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(document, "markdown");
    await vscode.window.showTextDocument(document, { preview: true, viewColumn: vscode.ViewColumn.Beside });
  }
}

async function applyAllFixes(host: CommandHost): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== "rust") {
    void vscode.window.showInformationMessage("burnlint: open a Rust file to fix.");
    return;
  }
  const client = await host.readyClient();
  if (!client) {
    void vscode.window.showErrorMessage("burnlint: the language server is not running.");
    return;
  }
  const { document } = editor;
  let fixes: number | undefined;
  try {
    // The server computes the safe fixes of its current results and sends them back with
    // workspace/applyEdit (versioned, so stale edits are refused).
    const result = (await client.sendRequest(ExecuteCommandRequest.type, {
      command: COMMANDS.applyAllFixes,
      arguments: [client.code2ProtocolConverter.asUri(document.uri)],
    })) as { applied?: boolean; fixes?: number } | null;
    if (result?.applied === false) {
      void vscode.window.showWarningMessage("burnlint: the fixes were not applied (the file changed meanwhile?). Try again.");
      return;
    }
    fixes = result?.fixes;
  } catch (error) {
    host.output.warn(`burnlint.applyAllFixes on the server failed (${String(error)}); using source.fixAll.burnlint instead`);
    fixes = await applyFixAllCodeAction(document);
  }
  if (!fixes) {
    void vscode.window.showInformationMessage("burnlint: no safe fixes to apply in this file.");
  }
}

/** Fallback: request the `source.fixAll.burnlint` code action and apply it; returns the count. */
async function applyFixAllCodeAction(document: vscode.TextDocument): Promise<number> {
  const version = document.version;
  const whole = new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length));
  const actions =
    (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
      "vscode.executeCodeActionProvider",
      document.uri,
      whole,
      FIX_ALL_KIND.value,
      10,
    )) ?? [];
  const ours = actions.filter((a): a is vscode.CodeAction => "kind" in a && a.kind !== undefined && FIX_ALL_KIND.contains(a.kind));
  let applied = 0;
  for (const action of ours) {
    if (document.version !== version) {
      break; // never apply edits computed for an older version
    }
    if (action.edit && action.edit.size > 0 && (await vscode.workspace.applyEdit(action.edit))) {
      applied += 1;
    }
    if (action.command) {
      await vscode.commands.executeCommand(action.command.command, ...(action.command.arguments ?? []));
      applied += 1;
    }
  }
  return applied;
}

/**
 * Peeks at the path of a finding's value: the code action passes (uri, line, character); from the
 * command palette, the cursor in the active editor says which finding.
 */
async function showProvenance(host: CommandHost, args: unknown[]): Promise<void> {
  let target = provenanceTarget(args);
  const editor = vscode.window.activeTextEditor;
  if (!target && editor) {
    const cursor = editor.selection.active;
    target = { uri: editor.document.uri.toString(), line: cursor.line, character: cursor.character };
  }
  if (!target) {
    void vscode.window.showInformationMessage("burnlint: put the cursor on a burnlint problem to see where its value came from.");
    return;
  }
  const client = await host.readyClient();
  if (!client) {
    return;
  }
  let answer: unknown;
  try {
    answer = await client.sendRequest(ExecuteCommandRequest.type, {
      command: COMMANDS.showProvenance,
      arguments: [target.uri, target.line, target.character],
    });
  } catch (error) {
    void vscode.window.showInformationMessage(`burnlint: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  const provenance = parseProvenance(answer);
  if (!provenance) {
    host.output.warn(`burnlint.showProvenance: unexpected answer ${JSON.stringify(answer)}`);
    return;
  }
  const position = (p: { line: number; character: number }) => new vscode.Position(p.line, p.character);
  const locations = provenance.steps.map(
    (step) => new vscode.Location(vscode.Uri.parse(step.uri), new vscode.Range(position(step.range.start), position(step.range.end))),
  );
  await vscode.commands.executeCommand("editor.action.peekLocations", vscode.Uri.parse(provenance.uri), position(provenance.position), locations, "peek");
}
