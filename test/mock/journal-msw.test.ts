// A file of its own: MSW patches this worker's global fetch while a target is open.
import { mswHost } from '../support/hosts.js';
import { runJournalFacts } from '../support/journal-facts.js';

runJournalFacts('MSW handlers in setupServer', mswHost);
