-- wrk: each thread posts its share of the lines of a file to one path, each once; a thread that
-- runs out posts its last one again (a duplicate, answered 200 and counted apart by the
-- gateway's metrics). Arguments: FILE THREADS PATH [HEADER]. With HEADER, a line is
-- "value<TAB>body" and the value is sent in that header (Stripe's signature); else the line is
-- the body. Bodies are JSON.
local threads = 0
function setup(thread)
  thread:set("index", threads)
  threads = threads + 1
end

function init(args)
  local mine, n, i, path, header = {}, tonumber(args[2]), 0, args[3], args[4]
  for line in io.lines(args[1]) do
    if i % n == index then
      local headers, body = { ["Content-Type"] = "application/json" }, line
      if header then
        local tab = line:find("\t", 1, true)
        headers[header], body = line:sub(1, tab - 1), line:sub(tab + 1)
      end
      mine[#mine + 1] = wrk.format("POST", path, headers, body)
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
