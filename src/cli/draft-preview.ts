/** Where a preview is written: standard output, or a stand-in in tests. */
export interface PreviewOutput {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface DraftPreview {
  /** Shows more of the draft as it arrives. */
  write(delta: string): void;
  /**
   * Ends the preview before the checked answer is printed. On a terminal the draft is erased (the answer,
   * with its citations, takes its place); elsewhere it stays, closed with a blank line.
   */
  end(): void;
}

/** Rows the text fills on a terminal `columns` wide (characters counted as one column each). */
function rowsOf(text: string, columns: number): number {
  let rows = 0;
  for (const line of text.split("\n")) rows += Math.max(1, Math.ceil(line.length / columns));
  return rows;
}

/** The draft of a streamed LLM answer, printed as it is written (`ferret ask` without `--json`). */
export function createDraftPreview(out: PreviewOutput): DraftPreview {
  let shown = "";
  return {
    write(delta) {
      if (delta.length === 0) return;
      shown += delta;
      out.write(delta);
    },
    end() {
      if (shown.length === 0) return;
      if (out.isTTY) {
        const up = rowsOf(shown, Math.max(1, out.columns ?? 80)) - 1;
        // To the start of the draft's first row, then clear to the end of the screen.
        out.write(`${up > 0 ? `\x1b[${up}F` : "\r"}\x1b[J`);
      } else {
        out.write("\n\n");
      }
      shown = "";
    },
  };
}
