/**
 * `ferret search ... | head -1`: when the reader of the output goes away, the next write fails with EPIPE.
 * That is the reader's choice, not an error of ferret's. A closed standard output ends the command at
 * once, quietly, with status 0 (as `yes | head -1` ends without a message); a closed standard error is
 * ignored (diagnostics nobody reads), so the exit status still says how the command went. Any other
 * stream error is still thrown.
 */
const watched = new WeakSet<NodeJS.WritableStream>();

const CLOSED = new Set(["EPIPE", "ERR_STREAM_DESTROYED"]);

function watch(stream: NodeJS.WritableStream, onClosed: () => void): void {
  if (watched.has(stream)) return;
  watched.add(stream);
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== undefined && CLOSED.has(error.code)) onClosed();
    else throw error;
  });
}

export function exitQuietlyOnClosedPipe(
  streams: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream } = {
    stdout: process.stdout,
    stderr: process.stderr,
  },
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  watch(streams.stdout, () => exit(0));
  watch(streams.stderr, () => {});
}
