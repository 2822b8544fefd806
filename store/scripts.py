"""The Lua scripts of the store's atomic writes: creating a game, appending a command's events,
saving a snapshot, expiring a game no seat acted in."""

# Lua runs atomically; Redis does not roll a script back on a runtime error, so every check
# happens before the first write.
APPEND = """
local meta, stream, idem, tokens = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local expected = tonumber(ARGV[1])
local idem_key, fingerprint = ARGV[2], ARGV[3]
local role, token_hash = ARGV[4], ARGV[5]
local n_meta = tonumber(ARGV[6])
local first_event = 7 + 2 * n_meta
local n_events = #ARGV - first_event + 1

local current = redis.call('HGET', meta, 'version')
if not current then return {'missing', 0} end
current = tonumber(current)
if role ~= '' and redis.call('HGET', tokens, role) ~= token_hash then
  return {'credential', current}
end

if idem_key ~= '' then
  local prior = redis.call('HGET', idem, idem_key)
  if prior then
    local sep = string.find(prior, '|', 1, true)
    if string.sub(prior, 1, math.min(sep - 1, #fingerprint)) ~= fingerprint then
      return {'reused', current}
    end
    return {'duplicate', current, string.sub(prior, sep + 1)}
  end
end
if expected ~= current then return {'conflict', current} end
if n_events < 1 then return {'empty', current} end
for i = first_event, #ARGV do
  if ARGV[i] == '' then return {'malformed', current} end
end

for i = first_event, #ARGV do
  redis.call('XADD', stream, tostring(current + i - first_event + 1) .. '-0', 'e', ARGV[i])
end
local last = current + n_events
local fields = {'version', tostring(last)}
for i = 0, n_meta - 1 do
  fields[#fields + 1] = ARGV[7 + 2 * i]
  fields[#fields + 1] = ARGV[8 + 2 * i]
end
redis.call('HSET', meta, unpack(fields))
local result = tostring(current + 1) .. '-' .. tostring(last)
if idem_key ~= '' then redis.call('HSET', idem, idem_key, fingerprint .. '|' .. result) end
return {'ok', last, result}
"""

CREATE = """
local meta, stream, secret, tokens = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
if redis.call('EXISTS', meta) == 1 then return {'exists'} end
local n_meta, n_tokens = tonumber(ARGV[2]), tonumber(ARGV[3])
local first_token = 4 + 2 * n_meta
local first_event = first_token + 2 * n_tokens
if first_event > #ARGV then return {'malformed'} end
for i = first_event, #ARGV do
  if ARGV[i] == '' then return {'malformed'} end
end
redis.call('HSET', secret, 'seed', ARGV[1])
if n_tokens > 0 then
  redis.call('HSET', tokens, unpack(ARGV, first_token, first_event - 1))
end
for i = first_event, #ARGV do
  redis.call('XADD', stream, tostring(i - first_event + 1) .. '-0', 'e', ARGV[i])
end
local fields = {'version', tostring(#ARGV - first_event + 1)}
for i = 4, first_token - 1 do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', meta, unpack(fields))
return {'ok', #ARGV - first_event + 1}
"""

EXPIRE = """
-- KEYS: every key of one game, its meta second; ARGV[1]: the version it must still be at
if redis.call('HGET', KEYS[2], 'version') ~= ARGV[1] then return 0 end
redis.call('DEL', unpack(KEYS))
return 1
"""

SAVE_SNAPSHOT = """
local snaps, index, meta = KEYS[1], KEYS[2], KEYS[3]
local version = tonumber(ARGV[1])
local current = tonumber(redis.call('HGET', meta, 'version') or '-1')
if version > current then return 0 end
redis.call('HSET', snaps, ARGV[1], ARGV[2])
redis.call('ZADD', index, version, ARGV[1])
return 1
"""
