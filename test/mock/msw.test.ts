// A file of its own: MSW patches this worker's global fetch while a target is open.
import { mswHost } from '../support/hosts.js';
import { runHttpFacts } from '../support/http-facts.js';
import { runMockFeatures } from '../support/mock-features.js';

runHttpFacts('MSW handlers in setupServer', mswHost);
runMockFeatures('MSW handlers in setupServer', mswHost);
