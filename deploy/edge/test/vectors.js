// Runs deploy/edge/vectors.json through issue-edge.js, unchanged under node and njs:
//   node deploy/edge/test/vectors.js deploy/edge/vectors.json
//   njs deploy/edge/test/vectors.js deploy/edge/vectors.json
// Prints one line per failure and a summary; exits non-zero when any vector fails.
import fs from 'fs';
import crypto from 'crypto';
import edge from '../issue-edge.js';

function hmac(secret, input) { return crypto.createHmac('sha256', secret).update(input).digest(); }

var file = process.argv[process.argv.length - 1];
var set = JSON.parse(fs.readFileSync(file).toString());
var keys = edge.parseKeys(set.keys);
var failures = [];

for (var h = 0; h < set.hmac.length; h++) {
    var c = set.hmac[h];
    var mac = hmac(Buffer.from(c.key, 'hex'), Buffer.from(c.data, 'hex')).toString('hex');
    if (mac !== c.mac) { failures.push('RFC 4231 case ' + (h + 1) + ': ' + mac); }
}

for (var i = 0; i < set.vectors.length; i++) {
    var v = set.vectors[i];
    var d = edge.decide({ authorization: v.authorization, target: v.target, method: v.method }, keys, set.now, hmac);
    if (d.status !== v.status || d.reason !== v.reason) {
        failures.push(v.name + ': expected ' + v.status + ' ' + v.reason + ', got ' + d.status + ' ' + d.reason);
    }
}

for (var f = 0; f < failures.length; f++) { console.log('FAIL ' + failures[f]); }
console.log((set.vectors.length - failures.length) + '/' + set.vectors.length + ' vectors and ' +
            set.hmac.length + ' HMAC cases, ' + failures.length + ' failures');
if (failures.length > 0) { throw new Error('vectors failed'); }
