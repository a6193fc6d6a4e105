import { hostileDeployment } from '../test/support/hostile-servers.js';
const d = await hostileDeployment(process.argv[2] as never);
console.log(d.url);
