/** The active file's line in the status bar tooltip: pure helpers (no `vscode` import), unit-tested in Node. */

/** What the server's `burnlint.status` command answers for an open document. */
export interface FileStatus {
  analyzed?: boolean;
  era?: string;
  reason?: string;
  notes?: string[];
}

/**
 * The tooltip text for the active file: its burn era and why, then any note (an analysis that
 * stopped on its time budget); undefined when the server has nothing to say.
 */
export function describeFileStatus(answer: unknown): string | undefined {
  if (!answer || typeof answer !== "object") {
    return undefined;
  }
  const status = answer as FileStatus;
  if (status.analyzed === false || !status.era) {
    return undefined;
  }
  const lines = [status.reason ? `era: ${status.era} (${status.reason})` : `era: ${status.era}`];
  for (const note of status.notes ?? []) {
    lines.push(`note: ${note}`);
  }
  return lines.join("\n");
}
