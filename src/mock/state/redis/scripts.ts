/**
 * The Lua scripts of the Redis store. Redis runs a script as one step, with nothing of another client
 * in between: that is what makes a create, the opening of a session under the cap, and a drop atomic
 * across every replica. Session keys are derived inside the scripts from the namespace prefix and the
 * session name, which a standalone Redis allows (a Redis Cluster would not).
 *
 * A session's keys, under `<prefix>s:<name>:`:
 *   n            how many pets the session created (INCR gives the next one its number k)
 *   pets         hash k -> the pet's JSON without its id (`"name":...,"status":"sold"}`)
 *   st:<status>  list of the k of the session's pets with that status, in creation order
 *   clock        the session clock's offset from the base clock, in milliseconds
 * and `<prefix>sessions`, a sorted set of the named sessions by the Redis time of their last use. A
 * script that reads or writes pets first checks `<prefix>seed:recipe` against the generation the
 * replica serves; one that moves the default session's clock publishes on `<prefix>changes`.
 */
import type { ClientContext, Result } from 'ioredis';
import { PET_STATUSES } from '../../../openapi/facts.js';
import { CHANGES } from './change-feed.js';
import type { ScriptCommands } from './client.js';

/** Redis's clock in milliseconds: one clock for every replica, so a session's idle time means the same to all. */
const NOW_MS = `local function now_ms() local t = redis.call('TIME') return t[1] * 1000 + math.floor(t[2] / 1000) end`;

/** Deletes every key of one session. */
const DROP_KEYS = `local function drop_keys(prefix, name)
  local base = prefix .. 's:' .. name .. ':'
  redis.call('DEL', base .. 'n', base .. 'pets', base .. 'clock'${PET_STATUSES.map((status) => `, base .. 'st:${status}'`).join('')})
end`;

/** Drops the named sessions idle for `ttl` ms or more; returns the time now. */
const EXPIRE = `local function expire(registry, prefix, ttl)
  local now = now_ms()
  for _, name in ipairs(redis.call('ZRANGEBYSCORE', registry, '-inf', now - ttl)) do
    drop_keys(prefix, name)
    redis.call('ZREM', registry, name)
  end
  return now
end`;

const HELPERS = [NOW_MS, DROP_KEYS, EXPIRE].join('\n');

/**
 * Opens or touches a named session. KEYS: registry. ARGV: prefix, name, ttl ms, cap.
 * Returns `{1, clock offset or ''}`, or `{0}` when opening it would pass the cap.
 */
const OPEN = `${HELPERS}
local now = expire(KEYS[1], ARGV[1], tonumber(ARGV[3]))
if not redis.call('ZSCORE', KEYS[1], ARGV[2]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return {0} end
redis.call('ZADD', KEYS[1], now, ARGV[2])
return {1, redis.call('GET', ARGV[1] .. 's:' .. ARGV[2] .. ':clock') or ''}`;

/**
 * The first lines of a script that reads or writes a generation's pets: -1, and nothing done, when
 * the namespace's recipe (KEYS[1]) is no longer the one the replica serves (ARGV[1]). The check and
 * the work are one step, so no pet is ever read or written under another generation's numbering.
 */
const SAME_WORLD = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -1 end`;

/**
 * Adds a pet. KEYS: recipe, n, pets, st:<status>, registry. ARGV: recipe, the pet's JSON without its
 * id, the session name ('' for the default session). The number, the pet and its place in the status
 * index are written in one step, so no reader ever sees a pet half made. A named session dropped since
 * the request opened it is registered again rather than left with keys nobody lists.
 */
const CREATE = `${NOW_MS}
${SAME_WORLD}
local k = redis.call('INCR', KEYS[2])
redis.call('HSET', KEYS[3], k, ARGV[2])
redis.call('RPUSH', KEYS[4], k)
if ARGV[3] ~= '' and not redis.call('ZSCORE', KEYS[5], ARGV[3]) then redis.call('ZADD', KEYS[5], now_ms(), ARGV[3]) end
return k`;

/**
 * The first `need` pets a session created, with `status` when a status list is given.
 * KEYS: recipe, n, pets[, st:<status>]. ARGV: recipe, need. Returns `{k1, json1, k2, json2, ...}`.
 */
const CREATED = `${SAME_WORLD}
local need = tonumber(ARGV[2])
local ks = {}
if KEYS[4] then
  ks = redis.call('LRANGE', KEYS[4], 0, need - 1)
else
  local n = tonumber(redis.call('GET', KEYS[2]) or '0')
  for i = 1, math.min(n, need) do ks[i] = i end
end
if #ks == 0 then return {} end
local out = {}
for i, k in ipairs(ks) do
  out[2 * i - 1] = tonumber(k)
  out[2 * i] = redis.call('HGET', KEYS[3], k)
end
return out`;

/** One created pet. KEYS: recipe, pets. ARGV: recipe, k. Returns its JSON without its id, or 0 when there is none. */
const PET = `${SAME_WORLD}
return redis.call('HGET', KEYS[2], ARGV[2]) or 0`;

/** How many pets a session created. KEYS: recipe, n. ARGV: recipe. */
const COUNT = `${SAME_WORLD}
return tonumber(redis.call('GET', KEYS[2]) or '0')`;

/** Tells every replica that the default session's clock changed (change-feed.ts): they keep it in memory. */
const ANNOUNCE_CLOCK = `local function announce_clock(prefix) redis.call('PUBLISH', prefix .. '${CHANGES}', 'clock') end`;

/**
 * One session back to the seed. ARGV: prefix, name. Returns 1 when the default session's clock was
 * moved and every replica is told, else 0.
 */
const RESET = `${DROP_KEYS}
${ANNOUNCE_CLOCK}
local moved = ARGV[2] == 'default' and redis.call('EXISTS', ARGV[1] .. 's:default:clock') == 1
drop_keys(ARGV[1], ARGV[2])
if moved then announce_clock(ARGV[1]) return 1 end
return 0`;

/** Drops one named session. KEYS: registry. ARGV: prefix, name. Returns 1 when it was open. */
const DROP = `${DROP_KEYS}
local removed = redis.call('ZREM', KEYS[1], ARGV[2])
if removed == 1 then drop_keys(ARGV[1], ARGV[2]) end
return removed`;

/**
 * Drops every named session and puts the default one back to the seed. KEYS: registry. ARGV: prefix.
 * Returns 2 when the default session's clock was moved and every replica is told, else 1.
 */
const RESET_ALL = `${DROP_KEYS}
${ANNOUNCE_CLOCK}
for _, name in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do drop_keys(ARGV[1], name) end
redis.call('DEL', KEYS[1])
local moved = redis.call('EXISTS', ARGV[1] .. 's:default:clock') == 1
drop_keys(ARGV[1], 'default')
if moved then announce_clock(ARGV[1]) return 2 end
return 1`;

/**
 * The open named sessions, least recently used first. KEYS: registry. ARGV: prefix, ttl ms.
 * Returns `{now, name1, lastUsed1, created1, ...}`.
 */
const SESSIONS = `${HELPERS}
local now = expire(KEYS[1], ARGV[1], tonumber(ARGV[2]))
local out = {now}
local open = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
for i = 1, #open, 2 do
  out[#out + 1] = open[i]
  out[#out + 1] = tonumber(open[i + 1])
  out[#out + 1] = tonumber(redis.call('GET', ARGV[1] .. 's:' .. open[i] .. ':n') or '0')
end
return out`;

/**
 * Sets (ARGV[2] a number) or clears (ARGV[2] '') a session's clock offset, opening the session as
 * `OPEN` does, and tells every replica when it is the default session's. KEYS: registry. ARGV: prefix,
 * offset, name, ttl, cap. Returns 0 when the cap refuses it.
 */
const SET_CLOCK = `${HELPERS}
${ANNOUNCE_CLOCK}
local name = ARGV[3]
if name ~= 'default' then
  local now = expire(KEYS[1], ARGV[1], tonumber(ARGV[4]))
  if not redis.call('ZSCORE', KEYS[1], name) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[5]) then return 0 end
  redis.call('ZADD', KEYS[1], now, name)
end
local key = ARGV[1] .. 's:' .. name .. ':clock'
if ARGV[2] == '' then redis.call('DEL', key) else redis.call('SET', key, ARGV[2]) end
if name == 'default' then announce_clock(ARGV[1]) end
return 1`;

/** The scripts by command name, for `defineCommand`. */
export const SCRIPTS = {
  petstoreOpen: { numberOfKeys: 1, lua: OPEN },
  petstoreCreate: { numberOfKeys: 5, lua: CREATE },
  petstorePet: { numberOfKeys: 2, lua: PET },
  petstoreCount: { numberOfKeys: 2, lua: COUNT },
  petstoreReset: { numberOfKeys: 0, lua: RESET },
  petstoreDrop: { numberOfKeys: 1, lua: DROP },
  petstoreResetAll: { numberOfKeys: 1, lua: RESET_ALL },
  petstoreSessions: { numberOfKeys: 1, lua: SESSIONS },
  petstoreSetClock: { numberOfKeys: 1, lua: SET_CLOCK },
} as const;

/** `CREATED` takes three or four keys, so it is defined with the key count given on each call. */
export const CREATED_SCRIPT = { lua: CREATED } as const;

/** The scripts as ioredis types a command: the reply in a promise from a client, queued in a pipeline. */
type ScriptCommanders<Context extends ClientContext> = {
  [Name in keyof ScriptCommands]: (...args: ScriptCommands[Name]['args']) => Result<ScriptCommands[Name]['reply'], Context>;
};

// ioredis adds a method per `defineCommand`; this tells TypeScript about them, as client.ts names them.
declare module 'ioredis' {
  interface RedisCommander<Context> extends ScriptCommanders<Context> {}
}
