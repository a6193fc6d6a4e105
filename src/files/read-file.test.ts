import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from './file-bytes.js';
import { notARegularFile, readRegularFile } from './read-file.js';

describe('readRegularFile', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'petstore-read-file-'));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('reads a regular file as UTF-8 text, a multi-byte character across its pieces too', async () => {
    const path = join(folder, 'pets.yaml');
    const text = `${'a'.repeat(1024 * 1024 - 1)}ë and more`;
    await writeFile(path, text);
    expect(await readRegularFile(path)).toBe(text);
  });

  it('reads a byte order mark as no character (RFC 8259 8.1), and one elsewhere as it is', async () => {
    const path = join(folder, 'bom.json');
    await writeFile(path, '\uFEFF[{"id":1,"name":"\uFEFF"}]');
    expect(await readRegularFile(path)).toBe('[{"id":1,"name":"\uFEFF"}]');
  });

  it('refuses a device and a folder before a byte is read, saying what they are', async () => {
    await expect(readRegularFile('/dev/zero')).rejects.toThrow('it is a character device (such as /dev/zero), not a regular file');
    await expect(readRegularFile(folder)).rejects.toThrow('it is a folder, not a file');
  });

  it('refuses a file the kernel makes as it is read (/proc), which stat calls regular, and says so', async () => {
    await expect(readRegularFile('/proc/self/environ')).rejects.toThrow('it is made by the kernel as it is read (a file of /proc or /sys), not a regular file');
    expect(await notARegularFile('/proc/self/environ')).toBe('it is made by the kernel as it is read (a file of /proc or /sys), not a regular file');
    expect(await notARegularFile('/dev/null')).toBe('it is a character device (such as /dev/zero), not a regular file');
    const empty = join(folder, 'empty.json');
    await writeFile(empty, '');
    expect([await notARegularFile(empty), await notARegularFile(join(folder, 'none.json'))]).toEqual([undefined, undefined]);
  });

  it('refuses a file past the cap of 16 MiB, and reads one at the cap', async () => {
    expect(MAX_FILE_BYTES).toBe(16 * 1024 * 1024);
    const path = join(folder, 'large.json');
    await writeFile(path, '');
    await truncate(path, MAX_FILE_BYTES + 1);
    await expect(readRegularFile(path)).rejects.toThrow('it is larger than 16 MiB, the most petstore-mock reads of such a file');
    await truncate(path, MAX_FILE_BYTES);
    expect((await readRegularFile(path)).length).toBe(MAX_FILE_BYTES);
  });

  // Was read to its end before: a file of /proc holds a process's environment, and no flag's file lives there.
  it('leaves the file system’s own errors as they are', async () => {
    await expect(readRegularFile(join(folder, 'absent.json'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
