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
 *   born         a named session's birth: the token of the opening that found none of its keys
 * and, once pets were put into the session by id (`POST /__mock/pets`), replaced or removed:
 *   put          hash id -> the pet's JSON: each pet put or replaced, in place of a seeded or created
 *                pet of its id, and each pet created since (its id no longer follows from its number);
 *                '' for a pet removed (a tombstone: the id stays taken, never given again)
 *   top          the largest id below 2^62 the session holds: a pet created gets the next (INCR, exact
 *                to 2^63); that it exists says the session has pets put into it
 *   added        how many pets of `put` have an id no seeded or numbered created pet has, less the pets removed
 *   made         list of the ids of the pets created since the first put, in creation order
 *   bytes        what the session's own pets and tombstones are counted as (`spend`)
 * and `<prefix>sessions`, a sorted set of the named sessions by the Redis time of their last use, and
 * `<prefix>pets-bytes`, what the named sessions' own pets are counted as together. A
 * script that reads or writes pets first checks `<prefix>seed:recipe` against the generation the
 * replica serves; one that moves the default session's clock publishes on `<prefix>changes`.
 */
import type { ClientContext, Result } from 'ioredis';
import { PET_ENTRY_BYTES, SESSION_PETS_BYTES, SESSIONS_PETS_BYTES, TOMBSTONE_BYTES } from '../store.js';
import { CHANGES } from './change-feed.js';
import type { ScriptCommands } from './redis-client.js';

/** Redis's clock in milliseconds: one clock for every replica, so a session's idle time means the same to all. */
const NOW_MS = `local function now_ms() local t = redis.call('TIME') return t[1] * 1000 + math.floor(t[2] / 1000) end`;

/** Where `drop_keys` names the list of each value of the spec's filter (`st:sold`): `scriptsFor` writes them in. */
const FILTER_LISTS = '--[[filter lists]]';

/** Deletes every key of one session, giving what its pets were counted as back to the named sessions' total. */
const DROP_KEYS = `local function drop_keys(prefix, name)
  local base = prefix .. 's:' .. name .. ':'
  local bytes = tonumber(redis.call('GET', base .. 'bytes') or '0')
  if name ~= 'default' and bytes ~= 0 then redis.call('DECRBY', prefix .. 'pets-bytes', bytes) end
  redis.call('DEL', base .. 'n', base .. 'pets', base .. 'clock', base .. 'put', base .. 'top', base .. 'added', base .. 'made', base .. 'born', base .. 'bytes'${FILTER_LISTS})
end`;

/**
 * A session's own pets held to the budget the memory store holds them to (store.ts): a pet counted
 * 128 bytes and 2 a byte of its JSON as Redis keeps it, a tombstone 48, each session within
 * `SESSION_PETS_BYTES` and the named ones within `SESSIONS_PETS_BYTES` together. `counted` is what an
 * entry of `put` (or `pets`) is counted as; `spend` adds `delta` to the session (name '' or 'default' for
 * the default one) and returns 0, or, changing nothing, 1 past the session's cap and 2 past the total.
 */
const BUDGET = `local function counted(json)
  if not json then return 0 end
  if json == '' then return ${TOMBSTONE_BYTES} end
  return ${PET_ENTRY_BYTES} + 2 * #json
end
local function spend(prefix, name, delta, unchecked)
  local named = name ~= '' and name ~= 'default'
  local key = prefix .. 's:' .. (named and name or 'default') .. ':bytes'
  if delta > 0 and not unchecked then
    if tonumber(redis.call('GET', key) or '0') + delta > ${SESSION_PETS_BYTES} then return 1 end
    if named and tonumber(redis.call('GET', prefix .. 'pets-bytes') or '0') + delta > ${SESSIONS_PETS_BYTES} then return 2 end
  end
  if delta ~= 0 then
    redis.call('INCRBY', key, delta)
    if named then redis.call('INCRBY', prefix .. 'pets-bytes', delta) end
  end
  return 0
end`;

/** A Lua string literal of `text`, each character but letters, digits and a few safe ones as a decimal escape (Lua 5.1 has no `\u`). */
function luaString(text: string): string {
  const bytes = [...new TextEncoder().encode(text)];
  return `"${bytes.map((byte) => (/[\w:.-]/.test(String.fromCharCode(byte)) && byte < 0x80 ? String.fromCharCode(byte) : `\\${String(byte).padStart(3, '0')}`)).join('')}"`;
}

/** Deletes every key of one session, and its name as shown (which a reset keeps): the session is gone. */
const FORGET = `local function forget(prefix, name)
  drop_keys(prefix, name)
  redis.call('DEL', prefix .. 's:' .. name .. ':shown')
end`;

/** Drops the named sessions idle for `ttl` ms or more; returns the time now. */
const EXPIRE = `local function expire(registry, prefix, ttl)
  local now = now_ms()
  for _, name in ipairs(redis.call('ZRANGEBYSCORE', registry, '-inf', now - ttl)) do
    forget(prefix, name)
    redis.call('ZREM', registry, name)
  end
  return now
end`;

const HELPERS = [NOW_MS, DROP_KEYS, FORGET, EXPIRE].join('\n');

/**
 * Opens or touches a named session. KEYS: registry. ARGV: prefix, session id, ttl ms, cap, its name as
 * shown, a token no other opening ever gives. Returns `{1, clock offset or '', 1 when pets were put into
 * it else 0, its birth}`, or `{0}` when opening it would pass the cap. Its birth is the token of the
 * opening that found none of its keys: a reset, a drop or an expiry deletes it with the rest, so the pets
 * a replica keeps of a session (created-cache.ts) are those of one birth, never of a session of the same
 * name before it.
 */
const OPEN = `${HELPERS}
local now = expire(KEYS[1], ARGV[1], tonumber(ARGV[3]))
if not redis.call('ZSCORE', KEYS[1], ARGV[2]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return {0} end
redis.call('ZADD', KEYS[1], now, ARGV[2])
local base = ARGV[1] .. 's:' .. ARGV[2] .. ':'
redis.call('SET', base .. 'shown', ARGV[5])
redis.call('SETNX', base .. 'born', ARGV[6])
return {1, redis.call('GET', base .. 'clock') or '', redis.call('EXISTS', base .. 'top'), redis.call('GET', base .. 'born')}`;

/**
 * The first lines of a script that reads or writes a generation's pets: -1, and nothing done, when
 * the namespace's recipe (KEYS[1]) is no longer the one the replica serves (ARGV[1]). The check and
 * the work are one step, so no pet is ever read or written under another generation's numbering.
 */
const SAME_WORLD = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -1 end`;

/** Registers a named session (ARGV name, '' for the default one) dropped since the request opened it, rather than leave keys nobody lists. */
const REGISTER = `local function register(registry, name)
  if name ~= '' and not redis.call('ZSCORE', registry, name) then redis.call('ZADD', registry, now_ms(), name) end
end`;

/**
 * Adds pets: the creates of one session that arrived in one turn of the event loop (create-batch.ts),
 * one or many. KEYS: recipe, n, pets, registry, top, put, added, made, then each status list the pets
 * go to. ARGV: recipe, the session name ('' for the default session), then per pet the index in KEYS
 * of its status list and its JSON without its id. Each pet's number, the pet and its place in the
 * status index are written in one step, so no reader ever sees a pet half made, and a generation
 * changed under the replica makes none (-1). A pet past the session's budget (`spend`), and each after
 * it in the batch, is made not: -2 past the session's cap, -3 past the named sessions'. Returns each pet's number k, in order; in a session with
 * pets put into it, each one's id (a string: exact beyond 2^53): the next after the largest below
 * 2^62 (or the last created) that no pet put holds.
 */
const CREATE = `${NOW_MS}
${REGISTER}
${BUDGET}
${SAME_WORLD}
register(KEYS[4], ARGV[2])
local made = {}
-- The pets the session's budget takes, in order: those after the first it refuses are refused too (-2, -3).
local prefix = string.sub(KEYS[4], 1, #KEYS[4] - #'sessions')
local last = #ARGV
for i = 3, #ARGV, 2 do
  local over = spend(prefix, ARGV[2], counted(ARGV[i + 1]))
  if over ~= 0 then
    last = i - 1
    for _ = i, #ARGV, 2 do made[#made + 1] = -1 - over end
    break
  end
end
local refused = made
made = {}
if redis.call('EXISTS', KEYS[5]) == 1 then
  for i = 3, last, 2 do
    -- Past 2^62 the ids of pets put may lie ahead: a created pet skips each, never replaces one.
    local id
    repeat
      redis.call('INCR', KEYS[5])
      id = redis.call('GET', KEYS[5])
    until redis.call('HEXISTS', KEYS[6], id) == 0
    redis.call('HSET', KEYS[6], id, '{"id":' .. id .. ',' .. ARGV[i + 1])
    -- Kept with its id here, counted so: what a replace or a delete of it gives back.
    spend(prefix, ARGV[2], 2 * (#id + 7), true)
    redis.call('INCR', KEYS[7])
    redis.call('RPUSH', KEYS[8], id)
    made[#made + 1] = id
  end
  for _, no in ipairs(refused) do made[#made + 1] = no end
  return made
end
local count = (last - 2) / 2
if count == 0 then return refused end
-- A command per key, not per pet: what a script costs Redis is mostly per call.
local k = redis.call('INCRBY', KEYS[2], count) - count
local fields, lists = {}, {}
for i = 3, last, 2 do
  k = k + 1
  fields[#fields + 1] = k
  fields[#fields + 1] = ARGV[i + 1]
  local list = tonumber(ARGV[i])
  lists[list] = lists[list] or {}
  table.insert(lists[list], k)
  made[#made + 1] = k
end
redis.call('HSET', KEYS[3], unpack(fields))
for list, ks in pairs(lists) do redis.call('RPUSH', KEYS[list], unpack(ks)) end
for _, no in ipairs(refused) do made[#made + 1] = no end
return made`;

/**
 * Starts `top` when a session first has pets put, replaced or removed: the id after the last one
 * created by number (`base` + n), or the largest seeded id when none was created.
 */
const START_TOP = `local function start_top(top, n, largest, base)
  if redis.call('EXISTS', top) == 1 then return end
  if n > 0 then redis.call('SET', top, base) redis.call('INCRBY', top, n) else redis.call('SET', top, largest) end
end
-- Whether the session holds a pet of an id: its entry in put (prior, '' when removed) says so
-- when it has one, else whether it is seeded ('s') or a number k already created.
local function holds(prior, where, n)
  if prior then return prior ~= '' end
  return where == 's' or (where ~= '0' and tonumber(where) <= n)
end`;

/**
 * Puts pets into a session by id, each replacing the pet of its id, and tells every replica when it
 * is the default session (they serve its seeded pets from memory). KEYS: recipe, n, put, top, added,
 * registry. ARGV: recipe, session name ('' for the default one), the largest seeded id below 2^62,
 * the id created pet 0 would have, the largest id put below 2^62 (or ''), prefix, then per pet its
 * id, its JSON, and 's' for a seeded id, its created number k when it would be one, else '0'.
 * Ids are decimal strings compared as such: Lua's numbers are doubles, inexact beyond 2^53.
 * Returns 1 when every replica is told, else 0; -2 or -3, nothing put, past the session's budget (`spend`).
 */
const PUT = `${NOW_MS}
${REGISTER}
${START_TOP}
${BUDGET}
${SAME_WORLD}
local function greater(a, b) if #a ~= #b then return #a > #b end return a > b end
-- All or nothing within the session's budget, as in memory: each pet in place of what put held for its id.
local delta = 0
for i = 7, #ARGV, 3 do delta = delta + counted(ARGV[i + 1]) - counted(redis.call('HGET', KEYS[3], ARGV[i])) end
local over = spend(ARGV[6], ARGV[2], delta)
if over ~= 0 then return -1 - over end
local n = tonumber(redis.call('GET', KEYS[2]) or '0')
start_top(KEYS[4], n, ARGV[3], ARGV[4])
if ARGV[5] ~= '' and greater(ARGV[5], redis.call('GET', KEYS[4])) then redis.call('SET', KEYS[4], ARGV[5]) end
for i = 7, #ARGV, 3 do
  local id, where = ARGV[i], ARGV[i + 2]
  if not holds(redis.call('HGET', KEYS[3], id), where, n) then redis.call('INCR', KEYS[5]) end
  redis.call('HSET', KEYS[3], id, ARGV[i + 1])
end
register(KEYS[6], ARGV[2])
if ARGV[2] == '' then redis.call('PUBLISH', ARGV[6] .. '${CHANGES}', 'pets') return 1 end
return 0`;

/**
 * Replaces or removes one pet of a session, only when the session holds it, and tells every replica
 * when it is the default session (they serve its pets from memory). KEYS: recipe, n, put, top, added,
 * registry. ARGV: recipe, session name ('' for the default one), the largest seeded id below 2^62, the
 * id created pet 0 would have, prefix, the pet's id, its new JSON ('' to remove it), and where its id
 * is ('s', k or '0', as for `PUT`). A removed pet leaves a tombstone, so its id is never given again.
 * Returns 0 when the session holds no such pet, 2 when every replica is told, else 1; -2 or -3, nothing
 * changed, past the session's budget (`spend`).
 */
const CHANGE = `${NOW_MS}
${REGISTER}
${START_TOP}
${BUDGET}
${SAME_WORLD}
local n = tonumber(redis.call('GET', KEYS[2]) or '0')
local id, json = ARGV[6], ARGV[7]
local prior = redis.call('HGET', KEYS[3], id)
if not holds(prior, ARGV[8], n) then return 0 end
-- The pet or tombstone in place of what put held for the id, within the session's budget.
local over = spend(ARGV[5], ARGV[2], counted(json) - counted(prior))
if over ~= 0 then return -1 - over end
start_top(KEYS[4], n, ARGV[3], ARGV[4])
redis.call('HSET', KEYS[3], id, json)
if json == '' then redis.call('DECR', KEYS[5]) end
register(KEYS[6], ARGV[2])
if ARGV[2] == '' then redis.call('PUBLISH', ARGV[5] .. '${CHANGES}', 'pets') return 2 end
return 1`;

/**
 * The first `need` pets a session created by number, with `status` when a status list is given, less
 * the first `from` (which the replica keeps), and every pet put into it: a pet put may replace as many
 * numbered ones, so as many more are read. KEYS: recipe, n, pets, put, made[, st:<status>]. ARGV:
 * recipe, need, '1' to read `made` too, from. Returns `{{k1, json1, k2, json2, ...}, {id1, json1, ...}, {made ids}}`.
 */
const CREATED = `${SAME_WORLD}
local need = tonumber(ARGV[2]) + redis.call('HLEN', KEYS[4])
local from = tonumber(ARGV[4])
local ks = {}
if KEYS[6] then
  if need > from then ks = redis.call('LRANGE', KEYS[6], from, need - 1) end
else
  local n = tonumber(redis.call('GET', KEYS[2]) or '0')
  for i = from + 1, math.min(n, need) do ks[#ks + 1] = i end
end
local out = {}
for i, k in ipairs(ks) do
  out[2 * i - 1] = tonumber(k)
  out[2 * i] = redis.call('HGET', KEYS[3], k)
end
local made = {}
if ARGV[3] == '1' then made = redis.call('LRANGE', KEYS[5], 0, -1) end
return {out, redis.call('HGETALL', KEYS[4]), made}`;

/**
 * One pet: put into the session, or created (number k, 0 for none). KEYS: recipe, pets, put. ARGV:
 * recipe, k, id. Returns the JSON of a pet put (it starts with '{'), that of a created one without
 * its id, '' for a pet removed, or 0 when there is none of these.
 */
const PET = `${SAME_WORLD}
local put = redis.call('HGET', KEYS[3], ARGV[3])
if put then return put end
if ARGV[2] == '0' then return 0 end
return redis.call('HGET', KEYS[2], ARGV[2]) or 0`;

/** How many pets a session holds beyond the seed. KEYS: recipe, n, added. ARGV: recipe. */
const COUNT = `${SAME_WORLD}
return tonumber(redis.call('GET', KEYS[2]) or '0') + tonumber(redis.call('GET', KEYS[3]) or '0')`;

/** Tells every replica that the default session's clock changed (change-feed.ts): they keep it in memory. */
const ANNOUNCE_CLOCK = `local function announce_clock(prefix) redis.call('PUBLISH', prefix .. '${CHANGES}', 'clock') end`;

/** Whether the default session holds what every replica keeps of it: a clock moved, pets created (created-cache.ts), or pets put. */
const DEFAULT_MOVED = `local function default_moved(prefix) return redis.call('EXISTS', prefix .. 's:default:clock', prefix .. 's:default:n', prefix .. 's:default:top') > 0 end`;

/**
 * One session back to the seed. ARGV: prefix, name. Returns 1 when the default session's clock was
 * moved or pets created or put into it, and every replica is told, else 0.
 */
const RESET = `${DROP_KEYS}
${ANNOUNCE_CLOCK}
${DEFAULT_MOVED}
local moved = ARGV[2] == 'default' and default_moved(ARGV[1])
drop_keys(ARGV[1], ARGV[2])
if moved then announce_clock(ARGV[1]) return 1 end
return 0`;

/** Drops one named session. KEYS: registry. ARGV: prefix, name. Returns 1 when it was open. */
const DROP = `${DROP_KEYS}
${FORGET}
local removed = redis.call('ZREM', KEYS[1], ARGV[2])
if removed == 1 then forget(ARGV[1], ARGV[2]) end
return removed`;

/**
 * Drops every named session and puts the default one back to the seed. KEYS: registry. ARGV: prefix.
 * Returns 2 when the default session's clock was moved or pets created or put into it, and every replica is told, else 1.
 */
const RESET_ALL = `${DROP_KEYS}
${FORGET}
${ANNOUNCE_CLOCK}
${DEFAULT_MOVED}
for _, name in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do forget(ARGV[1], name) end
redis.call('DEL', KEYS[1])
local moved = default_moved(ARGV[1])
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
  local base = ARGV[1] .. 's:' .. open[i] .. ':'
  out[#out + 1] = redis.call('GET', base .. 'shown') or open[i]
  out[#out + 1] = tonumber(open[i + 1])
  out[#out + 1] = tonumber(redis.call('GET', base .. 'n') or '0') + tonumber(redis.call('GET', base .. 'added') or '0')
end
return out`;

/**
 * Sets (ARGV[2] a number) or clears (ARGV[2] '') a session's clock offset, opening the session as
 * `OPEN` does, and tells every replica when it is the default session's. KEYS: registry. ARGV: prefix,
 * offset, session id, ttl, cap, its name as shown. Returns 0 when the cap refuses it.
 */
const SET_CLOCK = `${HELPERS}
${ANNOUNCE_CLOCK}
local name = ARGV[3]
if name ~= 'default' then
  local now = expire(KEYS[1], ARGV[1], tonumber(ARGV[4]))
  if not redis.call('ZSCORE', KEYS[1], name) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[5]) then return 0 end
  redis.call('ZADD', KEYS[1], now, name)
  redis.call('SET', ARGV[1] .. 's:' .. name .. ':shown', ARGV[6])
end
local key = ARGV[1] .. 's:' .. name .. ':clock'
if ARGV[2] == '' then redis.call('DEL', key) else redis.call('SET', key, ARGV[2]) end
if name == 'default' then announce_clock(ARGV[1]) end
return 1`;

/** The scripts by command name, for `defineCommand`. */
const SCRIPTS = {
  petstoreOpen: { numberOfKeys: 1, lua: OPEN },
  petstorePut: { numberOfKeys: 6, lua: PUT },
  petstoreChange: { numberOfKeys: 6, lua: CHANGE },
  petstorePet: { numberOfKeys: 3, lua: PET },
  petstoreCount: { numberOfKeys: 3, lua: COUNT },
  petstoreReset: { numberOfKeys: 0, lua: RESET },
  petstoreDrop: { numberOfKeys: 1, lua: DROP },
  petstoreResetAll: { numberOfKeys: 1, lua: RESET_ALL },
  petstoreSessions: { numberOfKeys: 1, lua: SESSIONS },
  petstoreSetClock: { numberOfKeys: 1, lua: SET_CLOCK },
} as const;

/** Scripts whose key count varies (`CREATE`: one status list per status the pets have; `CREATED`: five or six), given on each call. */
const COUNTED_SCRIPTS = { petstoreCreate: { lua: CREATE }, petstoreCreated: { lua: CREATED } } as const;

/**
 * Every script by command name, for `defineCommand`, with the lists of `filterValues` (the values of the
 * spec's list filter, `status` in the bundled spec) among the keys a reset deletes.
 */
export function scriptsFor(filterValues: readonly unknown[]): Readonly<Record<string, { readonly numberOfKeys?: number; readonly lua: string }>> {
  const lists = filterValues.map((value) => `, base .. ${luaString(`st:${String(value)}`)}`).join('');
  return Object.fromEntries(
    Object.entries({ ...SCRIPTS, ...COUNTED_SCRIPTS }).map(([name, script]) => [name, { ...script, lua: script.lua.replaceAll(FILTER_LISTS, lists) }]),
  );
}

/** The scripts as ioredis types a command: the reply in a promise from a client, queued in a pipeline. */
type ScriptCommanders<Context extends ClientContext> = {
  [Name in keyof ScriptCommands]: (...args: ScriptCommands[Name]['args']) => Result<ScriptCommands[Name]['reply'], Context>;
};

// ioredis adds a method per `defineCommand`; this tells TypeScript about them, as redis-client.ts names them.
declare module 'ioredis' {
  interface RedisCommander<Context> extends ScriptCommanders<Context> {}
}
