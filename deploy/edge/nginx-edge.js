// nginx (njs, `js_import`) adapter of issue-edge.js: deploy/nginx/edge-njs.conf uses it.
//
// The keys come from $issue_edge_token_keys, which edge-njs.conf sets from a file nginx reads
// when it loads its configuration (start and `nginx -s reload`): `kid:base64url-secret[,...]`,
// the gateway's ISSUE_GATEWAY_TOKEN_KEYS value. Not from a file read here: njs 0.7 runs a
// module's top level again for every request, so a file read at the top would be one per request.
import edge from 'issue-edge.js';
import crypto from 'crypto';

function hmac(secret, input) { return crypto.createHmac('sha256', secret).update(input).digest(); }

// `js_set $issue_edge_status issue_edge.status`: "204" to serve, "401" or "403" to refuse. The
// refusal's reason goes to $issue_edge_reason (for the access log) and to the error log at info.
// Missing or malformed keys throw: the variable is then empty and edge-njs.conf answers 500.
// $issue_edge_fixed_now, when a configuration sets it, replaces the clock: for tests only.
function status(r) {
    var keys = edge.parseKeys(r.variables.issue_edge_token_keys || '');
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
