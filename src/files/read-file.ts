/**
 * Every file the CLIs read (`--data`, `--profile`, `--state`, the verifier's `--spec` and pacts) is
 * read here: only a regular file, and only up to `MAX_FILE_BYTES` (`MAX_PETS_FILE_BYTES` for a file of pets). A device (`/dev/zero`), a folder, a
 * named pipe or a socket is refused at once, before a byte is read, and so is a file whose size passes
 * the cap; a file that says it is small but is not (`/proc`) is cut off one byte past the cap. The read
 * is asynchronous, in pieces, so that SIGINT and SIGTERM stop the process while a slow disk answers.
 */
import { constants, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { MAX_FILE_BYTES } from './file-bytes.js';

/**
 * The most bytes of a file of pets (a `--data` list, a state file): 256 MiB, some four million pets in
 * JSON, so that a million-pet data set loads, and still a bound a file or a device cannot pass.
 */
export const MAX_PETS_FILE_BYTES = 256 * 1024 * 1024;

/** How much of a file one read takes: between two of them, a signal's handler runs. */
const PIECE_BYTES = 1024 * 1024;

/** A file refused before or while it is read: not a regular file, or larger than the cap. Its message says which, without the file's name. */
export class UnreadableFileError extends Error {
  override readonly name = 'UnreadableFileError';
}

/** What a path is when it is not a regular file, in words. */
function notAFile(stats: Stats): string {
  if (stats.isDirectory()) return 'it is a folder, not a file';
  if (stats.isCharacterDevice()) return 'it is a character device (such as /dev/zero), not a regular file';
  if (stats.isBlockDevice()) return 'it is a block device, not a regular file';
  if (stats.isFIFO()) return 'it is a named pipe, not a regular file';
  if (stats.isSocket()) return 'it is a socket, not a regular file';
  return 'it is not a regular file';
}

/**
 * Why a file `stat` calls regular is none: the kernel makes the files of /proc and /sys as they are
 * read and gives each the size 0, so one that reads more than its size is no file at rest (and may
 * hold a process's environment: its keys).
 */
const MADE_AS_READ = 'it is made by the kernel as it is read (a file of /proc or /sys), not a regular file';

/**
 * Why `path` is no regular file at rest (`notAFile`, or a file of /proc), or `undefined` when it is one
 * or does not exist; for a path that is written, not read (`--state`): what it is comes first.
 */
export async function notARegularFile(path: string): Promise<string | undefined> {
  const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)).catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return notAFile(stats);
    if (stats.size > 0) return undefined;
    const { bytesRead } = await handle.read(Buffer.alloc(1), 0, 1, 0);
    return bytesRead > 0 ? MADE_AS_READ : undefined;
  } finally {
    await handle.close();
  }
}

const tooLarge = (max: number) => new UnreadableFileError(`it is larger than ${max / 1024 / 1024} MiB, the most petstore-mock reads of such a file`);

/** UTF-8, as `Buffer.toString` reads it (a byte that is no UTF-8 becomes U+FFFD), less a leading byte order mark. */
const UTF8 = new TextDecoder('utf-8');

/**
 * The text of the regular file at `path` (UTF-8, without a byte order mark), read in pieces up to `max` bytes (`MAX_FILE_BYTES`). Rejects with
 * an `UnreadableFileError` for anything else, and with the file system's own error (`ENOENT`...) when
 * it cannot be opened.
 * @example
 * await readRegularFile('pets.yaml'); // the file's text
 * await readRegularFile('/dev/zero'); // UnreadableFileError: it is a character device (such as /dev/zero), not a regular file
 */
export async function readRegularFile(path: string, max = MAX_FILE_BYTES): Promise<string> {
  // Without O_NONBLOCK, opening a named pipe waits for a writer, maybe forever; a regular file ignores it.
  const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new UnreadableFileError(notAFile(stats));
    if (stats.size > max) throw tooLarge(max);
    const pieces: Buffer[] = [];
    let size = 0;
    for (;;) {
      const { bytesRead, buffer } = await handle.read(Buffer.allocUnsafe(PIECE_BYTES), 0, PIECE_BYTES, null);
      if (bytesRead === 0) break;
      size += bytesRead;
      if (size > max) throw tooLarge(max);
      if (size > stats.size) throw new UnreadableFileError(stats.size === 0 ? MADE_AS_READ : 'it grew while it was read; give a file nothing writes meanwhile');
      pieces.push(buffer.subarray(0, bytesRead));
    }
    // A byte order mark is read as no character: RFC 8259 8.1 lets a JSON parser ignore one, YAML 1.2 allows it, and an editor may add it.
    return UTF8.decode(Buffer.concat(pieces, size));
  } finally {
    await handle.close();
  }
}
