import { inProcessHost, nodeServerHost } from '../support/hosts.js';
import { runHttpFacts } from '../support/http-facts.js';
import { runMockFeatures } from '../support/mock-features.js';

runHttpFacts('the handler in process', inProcessHost);
runHttpFacts('the Node server on a free port', nodeServerHost);
runMockFeatures('the handler in process', inProcessHost);
runMockFeatures('the Node server on a free port', nodeServerHost);
