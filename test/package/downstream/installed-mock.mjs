// The installed petstore-mock command, started on a free port: the child process and the base URL it printed.
import { spawn } from 'node:child_process';

export async function startInstalledMock() {
  const mock = spawn(process.execPath, ['node_modules/.bin/petstore-mock', '--port', '0', '--quiet']);
  const url = await new Promise((resolve, reject) => {
    let out = '';
    mock.stdout.on('data', (chunk) => {
      out += chunk;
      const found = /(http:\/\/\S+\/v1)/.exec(out);
      if (found) resolve(found[1]);
    });
    mock.on('exit', (code) => reject(new Error(`petstore-mock exited with ${code}`)));
  });
  return { mock, url };
}
