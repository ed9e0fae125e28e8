-- wrk: each thread posts its share of the signed events (benchmarks/stripe/events.txt lines
-- "signature<TAB>body"), each once; a thread that runs out posts its last one again (a duplicate,
-- answered 200 and counted apart by the gateway's metrics).
local threads = 0
function setup(thread)
  thread:set("index", threads)
  threads = threads + 1
  thread:set("count", 0)
end

function init(args)
  local mine, n, i = {}, tonumber(args[2]), 0
  for line in io.lines(args[1]) do
    if i % n == index then
      local tab = line:find("\t", 1, true)
      mine[#mine + 1] = wrk.format("POST", "/v1/stripe/webhooks",
        { ["Stripe-Signature"] = line:sub(1, tab - 1), ["Content-Type"] = "application/json" }, line:sub(tab + 1))
    end
    i = i + 1
  end
  requests, position = mine, 1
end

function request()
  local r = requests[math.min(position, #requests)]
  position = position + 1
  return r
end
