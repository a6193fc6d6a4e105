// The installed petstore-mock command, started on a free port: the child process and the base URL it printed.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

// The mock dies with this script however it ends (on Linux, setpriv asks the kernel to kill it once its
// parent is gone), so that a test run stopped while the script runs leaves no mock behind.
const DIE_WITH_PARENT = existsSync('/usr/bin/setpriv') ? ['/usr/bin/setpriv', '--pdeathsig', 'SIGKILL', '--'] : [];

export async function startInstalledMock() {
  const [command, ...args] = [...DIE_WITH_PARENT, process.execPath, 'node_modules/.bin/petstore-mock', '--port', '0', '--quiet'];
  const mock = spawn(command, args);
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
