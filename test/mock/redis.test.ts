/**
 * The shared suites of HTTP facts and mock features against the Node server with its state in a real
 * Redis: a Redis-backed mock must answer exactly as the in-memory one does.
 */
import { afterAll, beforeAll } from 'vitest';
import { runHttpFacts } from '../support/http-facts.js';
import { runMockFeatures } from '../support/mock-features.js';
import { redisHost, startRedis, type TestRedis } from '../support/redis.js';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis.stop());

runHttpFacts(
  'the Node server on Redis',
  redisHost(() => redis),
);
runMockFeatures(
  'the Node server on Redis',
  redisHost(() => redis),
);
