/**
 * The part of an ioredis client the Redis store uses, as the store's own interface. ioredis is an
 * optional peer dependency: the published types of the package must not name one of its types, or a
 * TypeScript project without it fails to compile them (TS2307 with `skipLibCheck: false`). ioredis's
 * `Redis` satisfies this interface: redis-store.ts hands one over where a `RedisClient` is expected,
 * so the compiler checks that it does, with the scripts typed by scripts.ts.
 */

/** What the scripts that write a session's pets by id (put, replace, remove) are given first: its keys, its world and its name. */
export type SessionWrite = [
  recipe: string,
  n: string,
  put: string,
  top: string,
  added: string,
  registry: string,
  text: string,
  name: string,
  largest: string,
  base: string,
];

/** The Lua scripts of scripts.ts by command name: the keys and arguments each takes, and its reply. */
export interface ScriptCommands {
  readonly petstoreOpen: {
    readonly args: [registry: string, prefix: string, session: string, ttlMs: number, max: number, shown: string, token: string];
    readonly reply: [0] | [1, string, 0 | 1, string];
  };
  readonly petstoreCreate: {
    /** The keys (recipe, n, pets, registry, top, put, added, made, status lists), then recipe, name, and per pet its status list's index and JSON. */
    readonly args: [keyCount: number, ...keysThenArgs: string[]];
    readonly reply: (number | string)[] | -1;
  };
  readonly petstorePut: {
    readonly args: [...SessionWrite, highest: string, prefix: string, ...idJsonWhere: string[]];
    readonly reply: number;
  };
  readonly petstoreChange: {
    readonly args: [...SessionWrite, prefix: string, id: string, json: string, where: string];
    readonly reply: 0 | 1 | 2 | -2 | -3;
  };
  readonly petstoreCreated: {
    readonly args: [keyCount: 5 | 6, ...keysThenArgs: (string | number)[]];
    readonly reply: [created: (number | string)[], put: string[], made: string[]] | -1;
  };
  readonly petstorePet: { readonly args: [recipe: string, pets: string, put: string, text: string, k: number, id: string]; readonly reply: string | 0 | -1 };
  readonly petstoreCount: { readonly args: [recipe: string, n: string, added: string, text: string]; readonly reply: number };
  readonly petstoreReset: { readonly args: [prefix: string, name: string]; readonly reply: number };
  readonly petstoreDrop: { readonly args: [registry: string, prefix: string, name: string]; readonly reply: number };
  readonly petstoreResetAll: { readonly args: [registry: string, prefix: string]; readonly reply: number };
  readonly petstoreSessions: { readonly args: [registry: string, prefix: string, ttlMs: number]; readonly reply: (number | string)[] };
  readonly petstoreSetClock: {
    readonly args: [registry: string, prefix: string, offset: string, session: string, ttlMs: number, max: number, shown: string];
    readonly reply: number;
  };
}

/** The scripts as methods of a connected client: each reply in a promise. */
type ScriptMethods = {
  readonly [Name in keyof ScriptCommands]: (...args: ScriptCommands[Name]['args']) => Promise<ScriptCommands[Name]['reply']>;
};

/** A MULTI transaction: the commands queued, then sent as one by `exec`. */
export interface RedisTransaction {
  publish(channel: string, message: string): RedisTransaction;
  hincrby(key: string, field: string, increment: number): RedisTransaction;
  hset(key: string, ...fieldsAndValues: string[]): RedisTransaction;
  pexpire(key: string, milliseconds: number): RedisTransaction;
  set(key: string, value: string): RedisTransaction;
  del(...keys: string[]): RedisTransaction;
  exec(): Promise<unknown>;
}

/** A connection to Redis: the commands the store sends, the scripts it defined, and the events it follows. */
export interface RedisClient extends ScriptMethods {
  get(key: string): Promise<string | null>;
  mget(...keys: string[]): Promise<(string | null)[]>;
  set(key: string, value: string, px: 'PX', milliseconds: number, nx: 'NX'): Promise<'OK' | null>;
  set(key: string, value: string, px: 'PX', milliseconds: number): Promise<'OK' | null>;
  del(...keys: string[]): Promise<number>;
  hget(key: string, field: string): Promise<string | null>;
  hmget(key: string, ...fields: string[]): Promise<(string | null)[]>;
  hgetall(key: string): Promise<Record<string, string>>;
  lrange(key: string, start: number, stop: number): Promise<string[]>;
  smembers(key: string): Promise<string[]>;
  incrby(key: string, increment: number): Promise<number>;
  publish(channel: string, message: string): Promise<number>;
  /** `EVAL`: a script sent with each call, for one that no replica needs defined ahead (the journal lock's). */
  eval(script: string, numberOfKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
  multi(): RedisTransaction;
  /** `CONFIG GET parameter`: `[parameter, value]`, or an error where CONFIG is disabled. */
  config(subcommand: 'GET', parameter: string): Promise<unknown>;
  info(section: string): Promise<string>;
  /** `SELECT index`: rejects when the server has no such database. */
  select(index: number): Promise<unknown>;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'ready', listener: () => void): unknown;
  quit(): Promise<unknown>;
  disconnect(): void;
  /** A new connection with the same options, for a subscription. */
  duplicate(override: { readonly connectionName: string }): SubscriberClient;
}

/** A connection that listens to a channel (change-feed.ts). */
export interface SubscriberClient {
  connect(): Promise<void>;
  subscribe(channel: string): Promise<unknown>;
  ping(): Promise<unknown>;
  on(event: 'message', listener: (channel: string, message: string) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  quit(): Promise<unknown>;
  disconnect(): void;
}

/** What adds the Lua scripts to a client before its first command: ioredis's `defineCommand`. */
export interface ScriptHost {
  defineCommand(name: string, definition: { readonly numberOfKeys?: number; readonly lua: string }): void;
}
