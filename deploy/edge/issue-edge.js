// issue-gateway download-token check for JavaScript edges: shared/spec/tokens.md,
// "Verification", steps 1-5, in the gateway's order and with its failure reasons
// (Sources/Entitle/Tokens/TokenFailure.swift), so every edge and the gateway agree on
// deploy/edge/vectors.json.
//
// Written once for njs 0.7 (nginx, and CloudFront Functions, which run on njs) and for V8
// (node, Cloudflare Workers): ES modules, no classes, no for...of, no destructuring. Needs
// `Buffer` (njs, node, CloudFront 2.0; Workers with the nodejs_compat flag). No clock, no
// crypto: the caller passes `now` and an HMAC-SHA-256 function, so the file is pure.

var POLICY = {
    maxTokenBytes: 4096,          // step 1
    leewaySeconds: 30,            // step 4
    maxLifetimeSeconds: 3600,     // step 4: exp - iat
    audience: 'edge',             // Claims
    maxRequestTargetBytes: 8192,  // longer request targets are refused unread
    maxJSONDepth: 8               // header and claims are small, flat objects
};

var FORBIDDEN_HEADERS = ['jku', 'jwk', 'x5u', 'x5c', 'crit']; // step 2; RFC 8725 §3.1, §3.10
var ALLOWED_METHODS = ['GET', 'HEAD'];                        // step 5

// 403 for a genuine, current token presented for a request it does not cover; 401 otherwise
// (http-api.md, Edge).
var FORBIDDEN_REASONS = ['pathMissing', 'pathRefused', 'pathNotGranted', 'method'];

function Refusal(reason) { this.reason = reason; }

function refuse(reason) { throw new Refusal(reason); }

function statusOf(reason) { return FORBIDDEN_REASONS.indexOf(reason) >= 0 ? 403 : 401; }

// RFC 4648 §5 without padding, strict: the alphabet only, and the one canonical spelling
// (re-encoding what was decoded gives the input back, so `=`, a length of 1 mod 4 and
// non-zero pad bits all fail). Returns a Buffer or null.
var BASE64URL = /^[A-Za-z0-9_-]*$/;
function base64urlDecode(text) {
    if (text.length % 4 === 1 || !BASE64URL.test(text)) { return null; }
    var bytes = Buffer.from(text, 'base64url');
    return bytes.toString('base64url') === text ? bytes : null;
}

// Valid UTF-8 (no overlong forms, no surrogates): exactly what survives a decode/encode round
// trip, since a decoder replaces anything else with U+FFFD.
function utf8Text(bytes) {
    var text = bytes.toString('utf8');
    // As many characters as bytes and no replacement character: ASCII, the common case.
    if (text.length === bytes.length && text.indexOf('\uFFFD') < 0) { return text; }
    return Buffer.from(text).equals(bytes) ? text : null;
}

// ---- Strict JSON (RFC 8259, as Wire's JSONParser) ----------------------------------------
// The native JSON.parse checks the grammar; a pass over the text's tokens adds what it lets
// through: duplicate member names (RFC 7515 §5.2, RFC 7519 §4), unpaired surrogate escapes,
// numbers not of RFC 8259 §6's form
// (njs's JSON.parse also takes `1.`, `.5` and leading zeros), nesting deeper than
// maxJSONDepth. It also keeps each top-level integer's literal: only a literal without
// fraction or exponent is an integer claim, and 64-bit values need their digits.
//
//
// Text without a backslash, as the gateway writes it, is read between its quotes in one pass
// over the characters outside strings (njs's regular expressions are slow); any other text is
// cut into tokens by one regular expression. Both feed the same checks.
var JSON_TOKEN = /"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^"{}\[\]:, \t\n\r]+/g;
var JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$/;
var ESCAPED_PAIR_OR_LONE = /(\\\\)|\\u([dD][89abAB][0-9a-fA-F]{2})(\\u[dD][c-fC-F][0-9a-fA-F]{2})?|\\u[dD][c-fC-F][0-9a-fA-F]{2}/g;
var INT64_DIGITS = '9223372036854775808';
var TIME_CLAIMS = ['iat', 'nbf', 'exp'];

// What the checks carry through one text: the open containers (a set of member names per
// object, null per array), the last member name, and the top-level time claims' literals.
function JSONScan(malformed, duplicate) {
    this.malformed = malformed;
    this.duplicate = duplicate;
    this.containers = [];
    this.name = null;
    this.integers = {};
}

JSONScan.prototype.open = function (isObject) {
    if (this.containers.length >= POLICY.maxJSONDepth) { refuse(this.malformed); }
    this.containers.push(isObject ? {} : null);
};

JSONScan.prototype.close = function () { this.containers.pop(); };

// Names are stored with a prefix, so `__proto__` is a name like any other.
JSONScan.prototype.member = function (name) {
    var seen = this.containers[this.containers.length - 1];
    if (seen['=' + name] === true) { refuse(this.duplicate); }
    seen['=' + name] = true;
    this.name = name;
};

// As Wire's JSONParser (RFC 8259 §6): a number past 64 bits or past the doubles is kept, not
// refused; it is simply not an integer, so a time claim written so is refused by its type.
JSONScan.prototype.number = function (literal) {
    if (!JSON_NUMBER.test(literal)) { refuse(this.malformed); }
    var integer = literal.indexOf('.') < 0 && literal.indexOf('e') < 0 && literal.indexOf('E') < 0 && fitsInt64(literal);
    if (integer && this.containers.length === 1 && TIME_CLAIMS.indexOf(this.name) >= 0) {
        this.integers[this.name] = literal;
    }
};

// Text without a backslash: strings are exactly what lies between two quotes.
function scanPlain(text, scan) {
    var parts = text.split('"');
    for (var i = 0; i < parts.length; i += 2) {
        var part = parts[i];
        if (part === ',') { continue; }
        if (part === ':') { scan.member(parts[i - 1]); continue; }
        for (var j = 0; j < part.length; j++) {
            var c = part.charCodeAt(j);
            if (c === 0x7B || c === 0x5B) {          // { [
                scan.open(c === 0x7B);
            } else if (c === 0x7D || c === 0x5D) {   // } ]
                scan.close();
            } else if (c === 0x3A) {                 // : after a member name
                scan.member(parts[i - 1]);
            } else if (c === 0x2D || c === 0x2E || (c >= 0x30 && c <= 0x39)) {
                var start = j;
                while (j + 1 < part.length && isNumberCharacter(part.charCodeAt(j + 1))) { j++; }
                scan.number(part.slice(start, j + 1));
            }
        }
    }
}

function isNumberCharacter(c) {
    return (c >= 0x30 && c <= 0x39) || c === 0x2E || c === 0x2D || c === 0x2B || c === 0x65 || c === 0x45;
}

// Any text: tokens are strings (with their quotes), punctuation, and runs of anything else.
function scanTokens(text, scan) {
    var match;
    var pendingString = null;
    JSON_TOKEN.lastIndex = 0;
    while ((match = JSON_TOKEN.exec(text)) !== null) {
        var token = match[0];
        var c = token.charAt(0);
        if (c === '{' || c === '[') {
            scan.open(c === '{');
        } else if (c === '}' || c === ']') {
            scan.close();
        } else if (c === '"') {
            if (hasUnpairedSurrogate(token)) { refuse(scan.malformed); }
            pendingString = token;
        } else if (c === ':') {
            scan.member(JSON.parse(pendingString));
        } else if (c !== ',' && c !== 't' && c !== 'f' && c !== 'n') {
            scan.number(token);
        }
    }
}

function fitsInt64(literal) {
    var negative = literal.charAt(0) === '-';
    var digits = negative ? literal.slice(1) : literal;
    if (digits.length !== INT64_DIGITS.length) { return digits.length < INT64_DIGITS.length; }
    return negative ? digits <= INT64_DIGITS : digits < INT64_DIGITS;
}

function hasUnpairedSurrogate(stringLiteral) {
    if (stringLiteral.indexOf('\\u') < 0) { return false; }
    var lone = false;
    stringLiteral.replace(ESCAPED_PAIR_OR_LONE, function (match, backslashes, high, low) {
        if (!backslashes && !(high && low)) { lone = true; }
        return match;
    });
    return lone;
}

// The JSON object in `bytes` as {value, integers: top-level time claim -> integer literal}, or
// a refusal with `malformed` / `duplicate`. In text JSON.parse accepted, a string followed by
// `:` is a member name and every run starting with `-`, `.` or a digit is a number.
function parseObject(bytes, malformed, duplicate) {
    var text = utf8Text(bytes);
    if (text === null) { refuse(malformed); }
    var value;
    try { value = JSON.parse(text); } catch (e) { refuse(malformed); }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) { refuse(malformed); }
    var scan = new JSONScan(malformed, duplicate);
    if (text.indexOf('\\') < 0) { scanPlain(text, scan); } else { scanTokens(text, scan); }
    return { value: value, integers: scan.integers };
}

// ---- 64-bit integer claims, exactly -------------------------------------------------------
// A claim literal as [high, low] with value = high * 1e9 + low and 0 <= low < 1e9: both parts
// are exact doubles, so exp - iat is compared without rounding however large the literals.
function splitInteger(literal) {
    var negative = literal.charAt(0) === '-';
    var digits = negative ? literal.slice(1) : literal;
    var high = Number(digits.slice(0, -9) || '0');
    var low = Number(digits.slice(-9));
    if (!negative) { return [high, low]; }
    return low === 0 ? [-high, 0] : [-high - 1, 1e9 - low];
}

function subtractSplit(a, b) {
    var high = a[0] - b[0];
    var low = a[1] - b[1];
    if (low < 0) { low += 1e9; high -= 1; }
    return [high, low];
}

function compareSplit(a, b) { return a[0] !== b[0] ? a[0] - b[0] : a[1] - b[1]; }

var INT64_MIN_SPLIT = splitInteger('-9223372036854775808');
var INT64_MAX_SPLIT = splitInteger('9223372036854775807');

// Step 4: exp - iat at most maxLifetimeSeconds; a difference outside 64 bits is too long.
function lifetimeIsAllowed(iatLiteral, expLiteral) {
    var lifetime = subtractSplit(splitInteger(expLiteral), splitInteger(iatLiteral));
    if (compareSplit(lifetime, INT64_MIN_SPLIT) < 0 || compareSplit(lifetime, INT64_MAX_SPLIT) > 0) { return false; }
    return compareSplit(lifetime, splitInteger(String(POLICY.maxLifetimeSeconds))) <= 0;
}

// ---- Steps 1-3: the token and its signature ------------------------------------------------

// Steps 1-2: what the MAC is checked over and with which key. `keys` is parseKeys' result.
function parseToken(token, keys) {
    if (Buffer.byteLength(token) > POLICY.maxTokenBytes) { refuse('tooLong'); }
    var segments = token.split('.');
    if (segments.length !== 3) { refuse('segments'); }
    var header = base64urlDecode(segments[0]);
    var payload = base64urlDecode(segments[1]);
    var signature = base64urlDecode(segments[2]);
    if (header === null || payload === null || signature === null) { refuse('base64'); }
    // The header the gateway writes passes step 2 as it is when its kid is configured; any
    // other text is parsed and checked in full.
    var known = gatewayHeaderKey(keys, header.toString('utf8'));
    if (known !== null) { return signed(known, token, segments, signature, payload); }
    var h = parseObject(header, 'headerJSON', 'duplicateHeaderName').value;
    if (h.alg !== 'HS256') { refuse('algorithm'); }
    for (var i = 0; i < FORBIDDEN_HEADERS.length; i++) {
        if (Object.prototype.hasOwnProperty.call(h, FORBIDDEN_HEADERS[i])) { refuse('forbiddenHeader'); }
    }
    // RFC 7519 §5.1: typ, when present, is JWT, compared case-insensitively.
    if (Object.prototype.hasOwnProperty.call(h, 'typ') &&
        (typeof h.typ !== 'string' || h.typ.toLowerCase() !== 'jwt')) { refuse('tokenType'); }
    if (typeof h.kid !== 'string') { refuse('missingKid'); }
    var key = findKey(keys, h.kid);
    if (key === null) { refuse('unknownKid'); }
    return signed(key, token, segments, signature, payload);
}

function signed(key, token, segments, signature, payload) {
    return {
        key: key,
        signingInput: token.slice(0, segments[0].length + 1 + segments[1].length),
        signature: signature,
        payload: payload
    };
}

var GATEWAY_HEADER_START = '{"alg":"HS256","typ":"JWT","kid":"';
var GATEWAY_HEADER_END = '"}';

// The key of `{"alg":"HS256","typ":"JWT","kid":"<kid>"}` exactly (tokens.md, Format), with a
// kid that needs no escaping; null for any other header.
function gatewayHeaderKey(keys, text) {
    var end = text.length - GATEWAY_HEADER_END.length;
    if (text.lastIndexOf(GATEWAY_HEADER_START, 0) !== 0 || text.indexOf(GATEWAY_HEADER_END, end) !== end) { return null; }
    var kid = text.slice(GATEWAY_HEADER_START.length, end);
    return KID.test(kid) ? findKey(keys, kid) : null;
}

// `kid` is only ever a lookup in the configured table.
function findKey(keys, kid) {
    for (var i = 0; i < keys.length; i++) {
        if (keys[i].kid === kid) { return keys[i]; }
    }
    return null;
}

// Step 3: every byte is compared whatever the first difference (the length is not secret).
function constantTimeEqual(a, b) {
    if (a.length !== b.length) { return false; }
    var difference = 0;
    for (var i = 0; i < a.length; i++) { difference |= a[i] ^ b[i]; }
    return difference === 0;
}

// ---- Step 4: the claims ---------------------------------------------------------------------
function checkClaims(payload, nowSeconds) {
    var parsed = parseObject(payload, 'claimsJSON', 'duplicateClaimName');
    var c = parsed.value;
    var integers = parsed.integers;
    if (c.aud !== POLICY.audience) { refuse('audience'); }
    var strings = ['iss', 'sub', 'pub', 'issue', 'jti'];
    for (var i = 0; i < strings.length; i++) {
        if (typeof c[strings[i]] !== 'string') { refuse('claimTypes'); }
    }
    var times = ['iat', 'nbf', 'exp'];
    for (var t = 0; t < times.length; t++) {
        if (typeof c[times[t]] !== 'number' || integers[times[t]] === undefined) { refuse('claimTypes'); }
    }
    if (!Array.isArray(c.paths)) { refuse('claimTypes'); }
    for (var p = 0; p < c.paths.length; p++) {
        if (typeof c.paths[p] !== 'string') { refuse('claimTypes'); }
    }
    if (!lifetimeIsAllowed(integers.iat, integers.exp)) { refuse('lifetimeTooLong'); }
    // nbf - leeway <= now < exp + leeway, iat <= now + leeway. Literals beyond 2^53 round,
    // but never across a current time, so the comparisons stay exact.
    var leeway = POLICY.leewaySeconds;
    if (nowSeconds < Number(integers.nbf) - leeway) { refuse('notYetValid'); }
    if (nowSeconds < Number(integers.iat) - leeway) { refuse('issuedInFuture'); }
    if (!(nowSeconds < Number(integers.exp) + leeway)) { refuse('expired'); }
    return c;
}

// ---- Step 5: the request --------------------------------------------------------------------
// RFC 3986 §2.1, exactly once: the bytes with every %XX decoded (an Array), or null when a `%`
// is not followed by two hex digits.
function percentDecode(bytes) {
    var out = [];
    for (var i = 0; i < bytes.length; i++) {
        if (bytes[i] !== 0x25) { out.push(bytes[i]); continue; }
        var high = hexValue(bytes[i + 1]);
        var low = hexValue(bytes[i + 2]);
        if (high < 0 || low < 0) { return null; }
        out.push(high * 16 + low);
        i += 2;
    }
    return out;
}

function hexValue(c) {
    if (c >= 0x30 && c <= 0x39) { return c - 0x30; }
    if (c >= 0x41 && c <= 0x46) { return c - 0x37; }
    if (c >= 0x61 && c <= 0x66) { return c - 0x57; }
    return -1;
}

// The path of an origin-form request target (RFC 9112 §3.2.1), the query ignored, percent-
// decoded once (RFC 3986 §2.1); refused with a `#`, a bad escape, or after decoding a `..`
// segment, an empty segment but a trailing one (`//`), NUL or backslash. Bytes in, bytes out.
function decodePath(target) {
    var end = target.indexOf(0x3F); // '?'
    var raw = end < 0 ? target : target.slice(0, end);
    if (raw.indexOf(0x23) >= 0) { refuse('pathRefused'); } // '#'
    var path = raw;
    if (raw.indexOf(0x25) >= 0) {  // '%'
        var decoded = percentDecode(raw);
        if (decoded === null) { refuse('pathRefused'); }
        path = Buffer.from(decoded);
    }
    // A segment is empty only between two slashes (a trailing slash ends the last one), and
    // `..` is a segment only between slashes or at the end.
    if (path[0] !== 0x2F || path.indexOf(0) >= 0 || path.indexOf(0x5C) >= 0 || path.indexOf('//') >= 0 ||
        path.indexOf('/../') >= 0 || (path.length >= 3 && path.slice(path.length - 3).toString() === '/..')) {
        refuse('pathRefused');
    }
    return path;
}

// `method` absent means GET (http-api.md: X-Original-Method is optional); names are
// case-sensitive (RFC 9110 §9.1).
function authorize(claims, target, method) {
    var path = decodePath(target);
    var granted = false;
    for (var i = 0; i < claims.paths.length; i++) {
        if (Buffer.from(claims.paths[i]).equals(path)) { granted = true; }
    }
    if (!granted) { refuse('pathNotGranted'); }
    if (ALLOWED_METHODS.indexOf(method === undefined || method === null ? 'GET' : method) < 0) { refuse('method'); }
}

// ---- Finding the token (http-api.md, Edge; EdgeCheck.swift) ---------------------------------

// RFC 6750 §2.1 `Bearer` 1*SP token68, scheme case-insensitive (RFC 9110 §11.1): the
// credential, null for another scheme or none, a refusal for a Bearer with nothing after it.
function bearerToken(authorization) {
    if (authorization === undefined || authorization === null) { return null; }
    var value = trimBlanks(authorization);
    var scheme = 'bearer';
    if (value.length < scheme.length) { return null; }
    for (var i = 0; i < scheme.length; i++) {
        if ((value.charCodeAt(i) | 0x20) !== scheme.charCodeAt(i)) { return null; }
    }
    var credential = value.slice(scheme.length);
    if (credential.length > 0 && credential.charAt(0) !== ' ') { return null; }
    var first = 0;
    while (credential.charCodeAt(first) === 0x20) { first++; }
    credential = credential.slice(first);
    if (credential.length === 0) { refuse('missingToken'); }
    return credential;
}

// Without the blanks (SP, HTAB, LF, CR) at either end.
function trimBlanks(text) {
    var start = 0;
    var end = text.length;
    while (start < end && isBlank(text.charCodeAt(start))) { start++; }
    while (end > start && isBlank(text.charCodeAt(end - 1))) { end--; }
    return start === 0 && end === text.length ? text : text.slice(start, end);
}

function isBlank(c) { return c === 0x20 || c === 0x09 || c === 0x0A || c === 0x0D; }

// The single `token` parameter of the query, percent-decoded once; two are refused rather
// than guessed between.
function queryToken(target) {
    var q = target.indexOf(0x3F);
    if (q < 0) { return null; }
    var parameters = target.slice(q + 1).toString('utf8').split('&');
    var found = null;
    for (var i = 0; i < parameters.length; i++) {
        var parameter = parameters[i];
        var eq = parameter.indexOf('=');
        var name = eq < 0 ? parameter : parameter.slice(0, eq);
        if (name !== 'token') { continue; }
        if (found !== null) { refuse('ambiguousToken'); }
        var decoded = percentDecode(Buffer.from(eq < 0 ? '' : parameter.slice(eq + 1)));
        if (decoded === null) { refuse('queryEncoding'); }
        // Lossy UTF-8, as the gateway reads it: anything not base64url fails step 1 anyway.
        found = Buffer.from(decoded).toString('utf8');
    }
    if (found === '') { refuse('missingToken'); }
    return found;
}

function asBytes(value) {
    return typeof value === 'string' ? Buffer.from(value) : Buffer.from(value);
}

// ---- The decision -----------------------------------------------------------------------------

// The edge's decision for one request, as EdgeCheck.decide makes it:
//   request.authorization  the Authorization header value, if any (string)
//   request.target         the path and query as received, undecoded (string or bytes)
//   request.method         the request method (absent: GET)
//   keys                   parseKeys' result; now: seconds since the epoch
//   hmac(secret, input)    HMAC-SHA-256 of the signing input (string) under the key's secret
//                          (Buffer), as a Buffer
// Answers {status: 204 | 401 | 403, reason: null | TokenFailure name, claims}.
function decide(request, keys, now, hmac) {
    try {
        var found = findToken(request);
        var parsed = parseToken(found.token, keys);
        if (!constantTimeEqual(hmac(parsed.key.secret, parsed.signingInput), parsed.signature)) { refuse('signature'); }
        return finish(parsed, found.target, request.method, now);
    } catch (e) {
        return refusal(e);
    }
}

// The same decision with an asynchronous HMAC verifier (WebCrypto's `subtle.verify`, which
// compares in constant time itself): verify(key, signatureBytes, signingInput) -> Promise<bool>.
function decideAsync(request, keys, now, verify) {
    var parsed, found;
    try {
        found = findToken(request);
        parsed = parseToken(found.token, keys);
    } catch (e) {
        return Promise.resolve(refusal(e));
    }
    return verify(parsed.key, parsed.signature, parsed.signingInput).then(function (valid) {
        try {
            if (!valid) { refuse('signature'); }
            return finish(parsed, found.target, request.method, now);
        } catch (e) {
            return refusal(e);
        }
    });
}

function findToken(request) {
    var target = request.target === undefined || request.target === null ? null : asBytes(request.target);
    if (target !== null && target.length > POLICY.maxRequestTargetBytes) { refuse('requestTooLong'); }
    var token = bearerToken(request.authorization);
    if (token === null && target !== null) { token = queryToken(target); }
    if (token === null) { refuse('missingToken'); }
    return { token: token, target: target };
}

function finish(parsed, target, method, now) {
    var claims = checkClaims(parsed.payload, Math.floor(now));
    if (target === null) { refuse('pathMissing'); }
    authorize(claims, target, method);
    return { status: 204, reason: null, kid: parsed.key.kid, claims: claims };
}

function refusal(e) {
    if (!(e instanceof Refusal)) { throw e; }
    return { status: statusOf(e.reason), reason: e.reason, kid: null, claims: null };
}

// ---- Keys (README, ISSUE_GATEWAY_TOKEN_KEYS) ------------------------------------------------
// `kid:base64url-secret,kid2:...` exactly as the gateway reads it: kids of 1-64 characters of
// A-Z a-z 0-9 . _ -, secrets of 32 bytes or more, no kid twice. The first signs (at the
// gateway), all verify. Throws an Error naming the bad entry (never the secret).
var KID = /^[A-Za-z0-9._-]{1,64}$/;
var MINIMUM_SECRET_BYTES = 32;

function parseKeys(configuration) {
    var text = trimBlanks(configuration);
    if (text === '') { throw new Error('token keys: none; expected kid:base64url-secret[,kid2:...]'); }
    var entries = text.split(',');
    var keys = [];
    for (var i = 0; i < entries.length; i++) {
        var entry = trimBlanks(entries[i]);
        var colon = entry.indexOf(':');
        var kid = colon < 0 ? '' : entry.slice(0, colon);
        if (!KID.test(kid)) { throw new Error('token keys: entry ' + (i + 1) + ' has no valid kid'); }
        var secret = base64urlDecode(entry.slice(colon + 1));
        if (secret === null) { throw new Error('token keys: the secret of ' + kid + ' is not base64url'); }
        if (secret.length < MINIMUM_SECRET_BYTES) { throw new Error('token keys: the secret of ' + kid + ' is too short'); }
        if (findKey(keys, kid) !== null) { throw new Error('token keys: ' + kid + ' appears twice'); }
        keys.push({ kid: kid, secret: secret });
    }
    return keys;
}

export default { decide: decide, decideAsync: decideAsync, parseKeys: parseKeys, policy: POLICY };
