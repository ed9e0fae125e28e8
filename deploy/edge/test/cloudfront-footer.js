// Appended to the built CloudFront Function by scripts/test-edge and run under njs (the engine
// CloudFront Functions run on): every vector as a viewer-request event, the clock fixed at the
// vectors' "now". A vector without a request target cannot be an event and is counted apart.
var vectorFile = process.argv[process.argv.length - 1];
var vectorSet = JSON.parse(require('fs').readFileSync(vectorFile).toString());
Date.now = function () { return vectorSet.now * 1000; };
var cfFailures = [];
var cfInexpressible = 0;
for (var vi = 0; vi < vectorSet.vectors.length; vi++) {
    var vector = vectorSet.vectors[vi];
    if (vector.target === undefined) { cfInexpressible++; continue; }
    var q = vector.target.indexOf('?');
    var headers = {};
    if (vector.authorization !== undefined) { headers.authorization = { value: vector.authorization }; }
    var event = { request: {
        method: vector.method === undefined ? 'GET' : vector.method,
        uri: q < 0 ? vector.target : vector.target.slice(0, q),
        headers: headers,
        rawQueryString: (function (query) { return function () { return query; }; })(q < 0 ? '' : vector.target.slice(q + 1))
    } };
    var answer = handler(event);
    var status = answer === event.request ? 204 : answer.statusCode;
    if (status !== vector.status) { cfFailures.push(vector.name + ': expected ' + vector.status + ', got ' + status); }
}
for (var fi = 0; fi < cfFailures.length; fi++) { console.log('FAIL ' + cfFailures[fi]); }
console.log('CloudFront Function: ' + (vectorSet.vectors.length - cfInexpressible) + ' vectors as events (' +
            cfInexpressible + ' without a request target), ' + cfFailures.length + ' failures');
if (cfFailures.length > 0) { throw new Error('vectors failed'); }
