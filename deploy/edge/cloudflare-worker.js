// Cloudflare Workers adapter of issue-edge.js (ES module worker; needs the nodejs_compat
// compatibility flag for `Buffer`). Bindings, set in wrangler.toml / the dashboard:
//   TOKEN_KEYS  secret: `kid:base64url-secret[,kid2:...]`, the gateway's ISSUE_GATEWAY_TOKEN_KEYS
//   ORIGIN      optional: the origin to fetch allowed files from (default: the request's own URL,
//               as a route in front of an origin)
// The MAC is checked with WebCrypto (`crypto.subtle.verify`, constant time). Keys are parsed
// and imported once per isolate and again when TOKEN_KEYS changes.
//
// Workers hand over `request.url` already parsed by the WHATWG URL parser, which removes dot
// segments (`..`, `%2e%2e`) and drops a fragment before this code runs: such a request is then
// checked, and fetched, as the path it normalises to.
import edge from './issue-edge.js';

var prepared = { text: null, keys: null, cryptoKeys: {} };

function keysFor(env) {
    if (prepared.text !== env.TOKEN_KEYS) {
        prepared = { text: env.TOKEN_KEYS, keys: edge.parseKeys(env.TOKEN_KEYS || ''), cryptoKeys: {} };
    }
    return prepared;
}

// WebCrypto HMAC-SHA-256 verification, the CryptoKey imported once per kid.
function verifier(state) {
    return function (key, signature, signingInput) {
        var imported = state.cryptoKeys['=' + key.kid];
        if (!imported) {
            imported = crypto.subtle.importKey('raw', key.secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
            state.cryptoKeys['=' + key.kid] = imported;
        }
        return imported.then(function (cryptoKey) {
            return crypto.subtle.verify('HMAC', cryptoKey, signature, new TextEncoder().encode(signingInput));
        });
    };
}

// The decision for a request: {status: 204 | 401 | 403, reason}.
function check(request, env, nowSeconds) {
    var url = new URL(request.url);
    var state = keysFor(env);
    return edge.decideAsync({
        authorization: request.headers.get('Authorization'),
        target: url.pathname + url.search,
        method: request.method
    }, state.keys, nowSeconds, verifier(state));
}

function fetchAllowed(request, env) {
    var url = new URL(request.url);
    var upstream = env.ORIGIN ? new URL(url.pathname + url.search, env.ORIGIN) : url;
    var forwarded = new Request(upstream, { method: request.method, headers: { 'Accept': request.headers.get('Accept') || '*/*' } });
    return fetch(forwarded).then(function (response) {
        var answer = new Response(response.body, response);
        // Like deploy/nginx: clients may cache, shared caches must not serve without a token.
        answer.headers.set('Cache-Control', 'private, max-age=300');
        return answer;
    });
}

export default {
    fetch: function (request, env) {
        return check(request, env, Date.now() / 1000).then(function (decision) {
            if (decision.status !== 204) {
                console.log('issue-edge: ' + decision.status + ' ' + decision.reason);
                return new Response(null, { status: decision.status });
            }
            return fetchAllowed(request, env);
        });
    },
    check: check,
    verifier: verifier
};
