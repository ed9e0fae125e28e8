// CloudFront Functions (runtime cloudfront-js-2.0, viewer request) adapter of issue-edge.js.
// CloudFront takes one file without imports: build it with
//   deploy/edge/build-cloudfront.sh KEYS_FILE > issue-edge-cloudfront.js
// which puts issue-edge.js (comments stripped) and the keys before this adapter. The keys are
// then part of the function's code: rotate by rebuilding and publishing the function.
var cloudfrontCrypto = require('crypto');
var CLOUDFRONT_KEYS = issueEdge.parseKeys(TOKEN_KEYS);
var STATUS_TEXT = { 401: 'Unauthorized', 403: 'Forbidden' };

function cloudfrontHmac(secret, input) {
    return cloudfrontCrypto.createHmac('sha256', secret).update(input).digest();
}

// The request as received: `uri` is the path as the viewer sent it, rawQueryString() the query
// undecoded.
function handler(event) {
    var request = event.request;
    var query = request.rawQueryString ? request.rawQueryString() : '';
    var authorization = request.headers.authorization;
    var decision = issueEdge.decide({
        authorization: authorization ? authorization.value : null,
        target: request.uri + (query ? '?' + query : ''),
        method: request.method
    }, CLOUDFRONT_KEYS, Date.now() / 1000, cloudfrontHmac);
    if (decision.status === 204) { return request; }
    console.log('issue-edge: ' + decision.status + ' ' + decision.reason);
    return { statusCode: decision.status, statusDescription: STATUS_TEXT[decision.status] };
}
