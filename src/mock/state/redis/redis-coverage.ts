/**
 * Coverage counted by every replica. Each replica counts in memory, as a lone mock does, and adds what
 * it counted to Redis every `flushMs` and before every report: an answer never waits for a count, and a
 * report holds every replica's counts up to `flushMs` old (its own up to the moment it is asked).
 */
import type { JsonValue } from '../../../json/lossless.js';
import { Coverage, type CoverageReport, type EnumValues } from '../coverage.js';
import type { RedisStore } from './redis-store.js';

/** How often a replica adds its counts to Redis. */
const COVERAGE_FLUSH_MS = 100;

/**
 * A mock's coverage, shared through Redis.
 * @example
 * const coverage = new SharedCoverage('/v1', state);
 * coverage.record('getPet', 404, []);
 * (await coverage.report()).covered; // this replica's count and every other's
 */
export class SharedCoverage {
  readonly #basePath: string;
  readonly #state: RedisStore;
  /** What this replica counted since it last added to Redis. */
  readonly #unsent: Coverage;
  readonly #timer: NodeJS.Timeout;

  constructor(basePath: string, state: RedisStore, flushMs = COVERAGE_FLUSH_MS) {
    this.#basePath = basePath;
    this.#state = state;
    this.#unsent = new Coverage(basePath);
    this.#timer = setInterval(() => void this.flush().catch(() => {}), flushMs).unref();
  }

  enumValuesOf(operationId: string, query: string): EnumValues {
    return this.#unsent.enumValuesOf(operationId, query);
  }

  record(operationId: string, status: number, values: EnumValues): void {
    this.#unsent.record(operationId, status, values);
  }

  recordBody(operationId: string, body: JsonValue): void {
    this.#unsent.recordBody(operationId, body);
  }

  /** Adds this replica's counts to Redis; while Redis is away they wait here for the next try. */
  async flush(): Promise<void> {
    const counts = this.#unsent.counts();
    if (Object.keys(counts).length === 0) return;
    this.#unsent.clear();
    try {
      await this.#state.addCounts(counts);
    } catch (error) {
      this.#unsent.add(counts);
      throw error;
    }
  }

  /** Every replica's coverage. */
  async report(): Promise<CoverageReport> {
    await this.flush();
    const all = new Coverage(this.#basePath);
    all.add(await this.#state.counts());
    return all.report();
  }

  /** Forgets what every replica counted. */
  async clear(): Promise<void> {
    this.#unsent.clear();
    await this.#state.clearCounts();
  }

  /** Stops the flushing, after a last one. */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush().catch(() => {});
  }
}
