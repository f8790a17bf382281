/** The status bar item showing the server's state; clicking it opens the burnlint output. */
import * as vscode from "vscode";

export type ServerState = "resolving" | "installing" | "starting" | "running" | "stopped" | "error" | "disabled";

const ICONS: Record<ServerState, string> = {
  resolving: "$(sync~spin)",
  installing: "$(cloud-download)",
  starting: "$(sync~spin)",
  running: "$(check)",
  stopped: "$(circle-slash)",
  error: "$(error)",
  disabled: "$(circle-slash)",
};

const LABELS: Record<ServerState, string> = {
  resolving: "looking for the burnlint server",
  installing: "installing burnlint into its managed environment",
  starting: "starting",
  running: "running",
  stopped: "stopped",
  error: "failed",
  disabled: "disabled (burnlint.enable is false)",
};

export class StatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private state: ServerState = "stopped";
  private detail: string | undefined;
  private file: string | undefined;

  constructor(command: string) {
    this.item = vscode.window.createStatusBarItem("burnlint.status", vscode.StatusBarAlignment.Right, 100);
    this.item.name = "burnlint";
    this.item.command = command;
    this.set("resolving");
    this.item.show();
  }

  get current(): ServerState {
    return this.state;
  }

  /** Updates the item; `detail` goes into the tooltip (server source, version, error). */
  set(state: ServerState, detail?: string): void {
    this.state = state;
    this.detail = detail;
    if (state !== "running") {
      this.file = undefined;
    }
    this.render();
  }

  /** The active file's era and notes (from the server's `burnlint.status`), shown in the tooltip. */
  setFile(text: string | undefined): void {
    if (text === this.file) {
      return;
    }
    this.file = text;
    this.render();
  }

  private render(): void {
    const state = this.state;
    this.item.text = `${ICONS[state]} burnlint`;
    const tooltip = new vscode.MarkdownString(`**burnlint**: ${LABELS[state]}`);
    if (this.file) {
      tooltip.appendText("\n\n" + this.file);
    }
    if (this.detail) {
      tooltip.appendText("\n\n" + this.detail);
    }
    tooltip.appendMarkdown("\n\n_Click to show the burnlint output._");
    this.item.tooltip = tooltip;
    this.item.backgroundColor =
      state === "error" ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined;
    this.item.accessibilityInformation = { label: `burnlint ${LABELS[state]}` };
  }

  dispose(): void {
    this.item.dispose();
  }
}
