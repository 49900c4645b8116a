-- The load of `npm run bench`, for wrk (Debian package wrk):
--
--   BENCH_PATHS=FILE wrk -t1 -cC -dSs -s bench/load.lua http://127.0.0.1:3199
--
-- FILE holds one path a line; they are requested in turn, one after the other across the connections (so a list of
-- many post ids is walked, not one cached row). Prints the result as one line of JSON.
local paths = {}
for line in io.lines(os.getenv("BENCH_PATHS")) do paths[#paths + 1] = line end
local next = 0

function request()
  next = next % #paths + 1
  return wrk.format("GET", paths[next])
end

function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    '{"requests":%d,"durationUs":%d,"bytes":%d,"non2xx":%d,"errors":%d,"p50Us":%d,"p99Us":%d}\n',
    summary.requests, summary.duration, summary.bytes, errors.status,
    errors.connect + errors.read + errors.write + errors.timeout,
    latency:percentile(50), latency:percentile(99)))
end
