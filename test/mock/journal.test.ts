/**
 * The request journal (docs/mock-journal.md) in process and on the Node server over real HTTP; MSW's
 * in journal-msw.test.ts, Redis and --workers in journal-redis.test.ts.
 */
import { inProcessHost, nodeServerHost } from '../support/hosts.js';
import { runJournalFacts } from '../support/journal-facts.js';

runJournalFacts('in process', inProcessHost);
runJournalFacts('Node server', nodeServerHost);
