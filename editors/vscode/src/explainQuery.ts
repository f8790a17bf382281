/** What `burnlint: Explain` explains: pure helpers (no `vscode` import), unit-tested in Node. */

export const CODE_RE = /\bBD\d{3}\b/i;

/** A diagnostic's `code` as VS Code stores it. */
export type DiagnosticCode = string | number | { value: string | number } | undefined;

export interface DiagnosticLike {
  source?: string;
  code?: DiagnosticCode;
}

export function codeOf(code: DiagnosticCode): string | undefined {
  if (code === undefined) {
    return undefined;
  }
  return String(typeof code === "object" ? code.value : code);
}

/**
 * The query for the explain request from the editor state, or undefined when the user must be
 * asked (input box). Priority: a non-empty selection (e.g. a pasted panic), a burnlint diagnostic
 * under the cursor, a `BDnnn` word under the cursor.
 */
export function pickQuery(ctx: { selection?: string; diagnosticsAtCursor: DiagnosticLike[]; wordAtCursor?: string }): string | undefined {
  const selection = ctx.selection?.trim();
  if (selection) {
    return selection;
  }
  for (const d of ctx.diagnosticsAtCursor) {
    const code = codeOf(d.code);
    if (d.source === "burnlint" && code) {
      return code;
    }
  }
  const word = ctx.wordAtCursor?.trim();
  if (word && CODE_RE.test(word)) {
    return CODE_RE.exec(word)?.[0].toUpperCase();
  }
  return undefined;
}

/**
 * The Markdown text in an explain response. The server returns a string; objects with a
 * `markdown`/`value`/`contents` string are accepted too. Undefined means "no entry".
 */
export function markdownOf(result: unknown): string | undefined {
  if (typeof result === "string") {
    return result.trim() ? result : undefined;
  }
  if (result && typeof result === "object") {
    for (const key of ["markdown", "value", "contents", "text"]) {
      const value = (result as Record<string, unknown>)[key];
      if (typeof value === "string" && value.trim()) {
        return value;
      }
    }
  }
  return undefined;
}

/** A file name for the preview tab: the first code in the Markdown, else "explain". */
export function previewName(markdown: string, query: string): string {
  const code = CODE_RE.exec(markdown)?.[0] ?? CODE_RE.exec(query)?.[0];
  return `${code ? code.toUpperCase() : "explain"}.md`;
}
