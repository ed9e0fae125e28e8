// The Cloudflare Workers adapter under node (WebCrypto, Request, Response and fetch are
// node's own): every vector through decideAsync with the adapter's WebCrypto verifier, then
// the fetch handler end to end for an allowed, a 401 and a 403 request (origin fetch replaced).
//   node deploy/edge/test/cloudflare-worker.js deploy/edge/vectors.json
import fs from 'fs';
import edge from '../issue-edge.js';
import worker from '../cloudflare-worker.js';

var set = JSON.parse(fs.readFileSync(process.argv[process.argv.length - 1]).toString());
var env = { TOKEN_KEYS: set.keys, ORIGIN: 'http://origin.test' };
var keys = edge.parseKeys(set.keys);
var verify = worker.verifier({ cryptoKeys: {} });
var failures = [];

async function main() {
    // Node 18 (Debian bookworm's) keeps WebCrypto in the crypto module; Workers and node 19+ have it global.
    if (!globalThis.crypto || !globalThis.crypto.subtle) { globalThis.crypto = (await import('crypto')).webcrypto; }
    for (var i = 0; i < set.vectors.length; i++) {
        var v = set.vectors[i];
        var d = await edge.decideAsync({ authorization: v.authorization, target: v.target, method: v.method }, keys, set.now, verify);
        if (d.status !== v.status || d.reason !== v.reason) {
            failures.push(v.name + ': expected ' + v.status + ' ' + v.reason + ', got ' + d.status + ' ' + d.reason);
        }
    }
    var allowed = set.vectors[0];
    var fetched = [];
    globalThis.fetch = async function (request) { fetched.push(request.url); return new Response('file', { status: 200 }); };
    var realNow = Date.now;
    Date.now = function () { return set.now * 1000; };
    try {
        var cases = [
            [{ authorization: allowed.authorization }, allowed.target, 200],
            [{}, allowed.target, 401],
            [{ authorization: allowed.authorization }, '/content/monthly/2012-03/issue.pdf', 403]
        ];
        for (var c = 0; c < cases.length; c++) {
            var response = await worker.fetch(new Request('http://edge.test' + cases[c][1], { headers: cases[c][0] }), env);
            if (response.status !== cases[c][2]) { failures.push('fetch ' + cases[c][1] + ': ' + response.status); }
        }
    } finally {
        Date.now = realNow;
    }
    if (fetched.length !== 1 || fetched[0] !== 'http://origin.test' + allowed.target) {
        failures.push('origin fetches: ' + JSON.stringify(fetched));
    }
    for (var f = 0; f < failures.length; f++) { console.log('FAIL ' + failures[f]); }
    console.log('Cloudflare Worker: ' + set.vectors.length + ' vectors and 3 fetches, ' + failures.length + ' failures');
    if (failures.length > 0) { process.exitCode = 1; }
}

main();
