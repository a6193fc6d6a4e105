/**
 * A reader that closes the pipe (`petstore-verify --help | head -1`) has taken all it wants: what is
 * still written is dropped, and the command ends with its own exit code, not with Node's stack for EPIPE.
 */
export function dropWritesToClosedPipes() {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
}
