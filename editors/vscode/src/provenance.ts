/** What `burnlint.showProvenance` answers: pure helpers (no `vscode` import), unit-tested in Node. */

export interface LspPosition {
  line: number;
  character: number;
}

export interface ProvenanceStep {
  uri: string;
  range: { start: LspPosition; end: LspPosition };
  /** What happened there: "autodiff device created here", ..., the finding's message last. */
  text: string;
}

/** Where to open the peek view, and the path of the value in flow order (the sink last). */
export interface Provenance {
  uri: string;
  position: LspPosition;
  steps: ProvenanceStep[];
}

function isPosition(value: unknown): value is LspPosition {
  const p = value as LspPosition | undefined;
  return typeof p?.line === "number" && typeof p.character === "number";
}

function isStep(value: unknown): value is ProvenanceStep {
  const s = value as ProvenanceStep | undefined;
  return typeof s?.uri === "string" && isPosition(s.range?.start) && isPosition(s.range?.end) && typeof s.text === "string";
}

/** The server's answer, checked; undefined when it is not one (an older server, an error). */
export function parseProvenance(answer: unknown): Provenance | undefined {
  const a = answer as { uri?: unknown; position?: unknown; locations?: unknown } | undefined;
  if (typeof a?.uri !== "string" || !isPosition(a.position) || !Array.isArray(a.locations)) {
    return undefined;
  }
  const steps = (a.locations as unknown[]).filter(isStep);
  return steps.length ? { uri: a.uri, position: a.position, steps } : undefined;
}

/** The command's arguments (uri, line, character) when a code action passes them. */
export function provenanceTarget(args: unknown[]): { uri: string; line: number; character: number } | undefined {
  const [uri, line, character] = args;
  if (typeof uri === "string" && typeof line === "number" && typeof character === "number") {
    return { uri, line, character };
  }
  return undefined;
}
