// nginx (njs, `js_import`) adapter of issue-edge.js: deploy/nginx/edge-njs.conf uses it.
//
// Keys are read once, when nginx loads its configuration (start and reload), from the file
// named by the environment variable ISSUE_EDGE_KEYS_FILE, else /etc/nginx/issue-gateway/token-keys:
// `kid:base64url-secret[,kid2:...]`, the gateway's ISSUE_GATEWAY_TOKEN_KEYS form. A missing or
// malformed file stops nginx from loading the configuration (fail closed); a changed file is
// read on `nginx -s reload`.
import edge from 'issue-edge.js';
import crypto from 'crypto';
import fs from 'fs';

var DEFAULT_KEYS_FILE = '/etc/nginx/issue-gateway/token-keys';
var keys = edge.parseKeys(fs.readFileSync(process.env.ISSUE_EDGE_KEYS_FILE || DEFAULT_KEYS_FILE).toString());

function hmac(secret, input) { return crypto.createHmac('sha256', secret).update(input).digest(); }

// `js_set $issue_edge_status nginx-edge.status`: "204" to serve, "401" or "403" to refuse. The
// refusal's reason goes to $issue_edge_reason (for the access log) and to the error log at info.
// $issue_edge_fixed_now, when a configuration sets it, replaces the clock: for tests only.
function status(r) {
    var fixed = r.variables.issue_edge_fixed_now;
    var now = fixed ? Number(fixed) : Date.now() / 1000;
    var decision = edge.decide({
        authorization: r.headersIn.Authorization,
        target: r.rawVariables.request_uri,  // as received, undecoded (bytes)
        method: r.method
    }, keys, now, hmac);
    if (decision.reason !== null) {
        r.variables.issue_edge_reason = decision.reason;
        r.log('issue-edge: ' + decision.status + ' ' + decision.reason);
    }
    return String(decision.status);
}

export default { status: status };
