// The OpenAPI 3.1 description of http-api.md, served at `GET /openapi.json`.
// A test compares its paths and methods with the router's, so neither side can drift.
enum OpenAPIDocument {
    static let json = #"""
{
 "openapi": "3.1.0",
 "info": {
  "title": "issue-gateway",
  "version": "1",
  "description": "Content-entitlement gateway for periodicals: catalog, App Store ingestion, entitlements, download tokens, edge check."
 },
 "paths": {
  "/healthz": {
   "get": {
    "operationId": "health",
    "summary": "Liveness",
    "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "properties": {"status": {"const": "ok"}}}}}}, "503": {"description": "storage_unavailable: the database cannot be reached", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
   }
  },
  "/metrics": {
   "get": {
    "operationId": "metrics",
    "summary": "Prometheus text metrics",
    "responses": {"200": {"description": "Prometheus text format", "content": {"text/plain": {"schema": {"type": "string"}}}}}
   }
  },
  "/openapi.json": {
   "get": {
    "operationId": "openapi",
    "summary": "This document",
    "responses": {"200": {"description": "OpenAPI 3.1 document", "content": {"application/json": {"schema": {"type": "object"}}}}}
   }
  },
  "/console/": {
   "get": {
    "operationId": "console",
    "summary": "The editors' and support staff's web console (the page asks for a key and keeps it in the tab's memory only)",
    "parameters": [{"$ref": "#/components/parameters/IfNoneMatch"}],
    "responses": {"200": {"description": "the console's page", "headers": {"ETag": {"$ref": "#/components/headers/ETag"}, "Content-Security-Policy": {"description": "the console's strict policy: its own files only, no inline script or style", "schema": {"type": "string"}}}, "content": {"text/html": {"schema": {"type": "string"}}}}, "304": {"description": "the client holds the current page", "headers": {"ETag": {"$ref": "#/components/headers/ETag"}}}, "400": {"description": "a header value with control characters", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
   }
  },
  "/console/{asset}": {
   "get": {
    "operationId": "consoleAsset",
    "summary": "One of the console's files (compiled into the gateway); any other name is a 404",
    "parameters": [{"name": "asset", "in": "path", "required": true, "example": "main.js", "schema": {"enum": ["index.html", "console.css", "icon.svg", "main.js", "api.js", "dom.js", "editors.js", "products.js", "support.js"]}, "description": ""}, {"$ref": "#/components/parameters/IfNoneMatch"}],
    "responses": {"200": {"description": "the file", "headers": {"ETag": {"$ref": "#/components/headers/ETag"}, "Content-Security-Policy": {"description": "the console's strict policy: its own files only, no inline script or style", "schema": {"type": "string"}}}, "content": {"text/html": {"schema": {"type": "string"}}, "text/css": {"schema": {"type": "string"}}, "text/javascript": {"schema": {"type": "string"}}, "image/svg+xml": {"schema": {"type": "string"}}}}, "304": {"description": "the client holds the current file", "headers": {"ETag": {"$ref": "#/components/headers/ETag"}}}, "400": {"description": "a header value with control characters", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "404": {"description": "not one of the console's files", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
   }
  },
  "/v1/publications": {
   "get": {
    "operationId": "listPublications",
    "summary": "All publications",
    "parameters": [{"$ref": "#/components/parameters/IfNoneMatch"}, {"$ref": "#/components/parameters/AcceptEncoding"}],
    "responses": {"304": {"$ref": "#/components/responses/NotModified"}, "400": {"description": "a header value with control characters (If-None-Match and Accept-Encoding are headers)", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "200": {"description": "publications", "headers": {"ETag": {"$ref": "#/components/headers/ETag"}, "Vary": {"$ref": "#/components/headers/Vary"}, "Content-Encoding": {"$ref": "#/components/headers/ContentEncoding"}}, "content": {"application/json": {"schema": {"type": "object", "properties": {"publications": {"type": "array", "items": {"$ref": "#/components/schemas/Publication"}}}}}}}}
   }
  },
  "/v1/publications/{publicationId}": {
   "put": {
    "operationId": "putPublication",
    "summary": "Create or rename a publication (admin)",
    "security": [{"bearer": []}],
    "parameters": [{"name": "publicationId", "in": "path", "required": true, "example": "monthly", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}, "description": ""}],
    "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["title"], "properties": {"title": {"type": "string", "minLength": 1, "maxLength": 500}}}}}},
    "responses": {"200": {"description": "updated", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Publication"}}}}, "201": {"description": "created", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Publication"}}}}, "400": {"description": "bad body", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "401": {"description": "no or unknown secret", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "403": {"description": "not admin", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "413": {"$ref": "#/components/responses/PayloadTooLarge"}}
   }
  },
  "/v1/products": {
   "get": {
    "operationId": "listProducts",
    "summary": "Products on offer",
    "parameters": [{"name": "all", "in": "query", "required": false, "schema": {"type": "boolean"}, "description": "include discontinued products"}, {"$ref": "#/components/parameters/IfNoneMatch"}, {"$ref": "#/components/parameters/AcceptEncoding"}],
    "responses": {"304": {"$ref": "#/components/responses/NotModified"}, "400": {"description": "a header value with control characters (If-None-Match and Accept-Encoding are headers)", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "200": {"description": "products", "headers": {"ETag": {"$ref": "#/components/headers/ETag"}, "Vary": {"$ref": "#/components/headers/Vary"}, "Content-Encoding": {"$ref": "#/components/headers/ContentEncoding"}}, "content": {"application/json": {"schema": {"type": "object", "properties": {"products": {"type": "array", "items": {"$ref": "#/components/schemas/Product"}}}}}}}}
   }
  },
  "/v1/products/{productId}": {
   "put": {
    "operationId": "putProduct",
    "summary": "Create or change a product (admin)",
    "security": [{"bearer": []}],
    "parameters": [{"name": "productId", "in": "path", "required": true, "example": "monthly.ios.monthly", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}, "description": ""}],
    "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ProductBody"}}}},
    "responses": {"200": {"description": "updated", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Product"}}}}, "201": {"description": "created", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Product"}}}}, "400": {"description": "bad body", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "401": {"description": "no or unknown secret", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "403": {"description": "not admin", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "409": {"description": "another product has this store and storeProductId", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "413": {"$ref": "#/components/responses/PayloadTooLarge"}}
   }
  },
  "/v1/publications/{publicationId}/issues": {
   "get": {
    "operationId": "listIssues",
    "summary": "Published issues, newest first",
    "parameters": [{"name": "publicationId", "in": "path", "required": true, "example": "monthly", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}, "description": ""}, {"name": "include", "in": "query", "required": false, "schema": {"enum": ["all"]}, "description": "editors of the publication and admin: scheduled and retracted too"}, {"$ref": "#/components/parameters/Limit"}, {"$ref": "#/components/parameters/After"}, {"$ref": "#/components/parameters/IfNoneMatch"}, {"$ref": "#/components/parameters/AcceptEncoding"}],
    "responses": {"304": {"$ref": "#/components/responses/NotModified"}, "400": {"description": "limit or after malformed, or a header value with control characters", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "200": {"description": "issues, newest first", "headers": {"ETag": {"$ref": "#/components/headers/ETag"}, "Vary": {"$ref": "#/components/headers/Vary"}, "Content-Encoding": {"$ref": "#/components/headers/ContentEncoding"}}, "content": {"application/json": {"schema": {"type": "object", "required": ["issues"], "properties": {"issues": {"type": "array", "items": {"$ref": "#/components/schemas/Issue"}}, "next": {"type": "string", "description": "cursor for ?after=, while more issues remain"}}}}}}, "401": {"description": "include=all without a secret", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "403": {"description": "include=all by someone else", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "404": {"description": "unknown publication", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
   },
   "post": {
    "operationId": "createIssue",
    "summary": "Publish or schedule an issue (editor of it, admin)",
    "security": [{"bearer": []}],
    "parameters": [{"name": "publicationId", "in": "path", "required": true, "example": "monthly", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}, "description": ""}],
    "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/IssueBody"}}}},
    "responses": {"201": {"description": "created", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Issue"}}}}, "400": {"description": "bad body", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "401": {"description": "no or unknown secret", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "403": {"description": "not an editor of it", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "404": {"description": "unknown publication", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "409": {"description": "the id exists", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "413": {"$ref": "#/components/responses/PayloadTooLarge"}}
   }
  },
  "/v1/publications/{publicationId}/issues/{issueId}": {
   "put": {
    "operationId": "correctIssue",
    "summary": "Correct, reschedule or republish an issue",
    "security": [{"bearer": []}],
    "parameters": [{"name": "publicationId", "in": "path", "required": true, "example": "monthly", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}, "description": ""}, {"name": "issueId", "in": "path", "required": true, "example": "2012-02", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}, "description": ""}],
    "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/IssueBody"}}}},
    "responses": {"200": {"description": "corrected", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Issue"}}}}, "400": {"description": "bad body", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "401": {"description": "no or unknown secret", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "403": {"description": "not an editor of it", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "404": {"description": "unknown issue", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "413": {"$ref": "#/components/responses/PayloadTooLarge"}}
   },
   "delete": {
    "operationId": "retractIssue",
    "summary": "Retract an issue",
    "security": [{"bearer": []}],
    "parameters": [{"name": "publicationId", "in": "path", "required": true, "example": "monthly", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}, "description": ""}, {"name": "issueId", "in": "path", "required": true, "example": "2012-02", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}, "description": ""}],
    "responses": {"200": {"description": "retracted", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Issue"}}}}, "401": {"description": "no or unknown secret", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "403": {"description": "not an editor of it", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "404": {"description": "unknown issue", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
   }
  },
  "/v1/keys": {
   "post": {
    "operationId": "createKey",
    "summary": "Create an editor or service key (admin)",
    "security": [{"bearer": []}],
    "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["role"], "properties": {"role": {"enum": ["editor", "service"]}, "publications": {"type": "array", "items": {"type": "string"}}}}}}},
    "responses": {"201": {"description": "the key, shown once", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Key"}}}}, "400": {"description": "bad body, or publications names an unknown publication", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "401": {"description": "no or unknown secret", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "403": {"description": "not admin", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "413": {"$ref": "#/components/responses/PayloadTooLarge"}}
   }
  },
  "/v1/keys/{keyId}": {
   "delete": {
    "operationId": "deleteKey",
    "summary": "Revoke a key (admin)",
    "security": [{"bearer": []}],
    "parameters": [{"name": "keyId", "in": "path", "required": true, "example": "key-unknown", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}, "description": ""}],
    "responses": {"200": {"description": "revoked", "content": {"application/json": {"schema": {"type": "object"}}}}, "401": {"description": "no or unknown secret", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "403": {"description": "not admin", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "404": {"description": "unknown key", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
   }
  },
  "/v1/accounts": {
   "post": {
    "operationId": "createAccount",
    "summary": "Create an account",
    "requestBody": {"required": false, "content": {"application/json": {"schema": {"type": "object", "properties": {"appAccountToken": {"type": "string", "format": "uuid"}}}}}},
    "responses": {"201": {"description": "created", "content": {"application/json": {"schema": {"type": "object", "properties": {"accountId": {"type": "string"}, "accountToken": {"type": "string"}}}}}}, "400": {"description": "bad body", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "409": {"description": "appAccountToken already bound", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "413": {"$ref": "#/components/responses/PayloadTooLarge"}, "429": {"description": "rate_limited: too many accounts created from this source address; try again after Retry-After seconds", "headers": {"Retry-After": {"description": "seconds until an account can be created again", "schema": {"type": "integer", "minimum": 1}}}, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
   }
  },
  "/v1/accounts/{accountId}/receipts": {
   "post": {
    "operationId": "postReceipt",
    "summary": "Verify and ingest a receipt and/or signed transactions",
    "security": [{"bearer": []}],
    "parameters": [{"name": "accountId", "in": "path", "required": true, "example": "acct-unknown", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}, "description": ""}],
    "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "properties": {"receiptData": {"type": "string", "contentEncoding": "base64"}, "signedTransactions": {"type": "array", "items": {"type": "string"}}}}}}},
    "responses": {"200": {"description": "the account's entitlements", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Entitlements"}}}}, "400": {"description": "not base64, empty, too large", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "401": {"description": "no or unknown secret", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "403": {"description": "another account", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "404": {"description": "unknown account", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "409": {"description": "owned_by_other_account (keep policy)", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "413": {"description": "payload_too_large", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "422": {"description": "receipt_rejected, with appStoreStatus", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "503": {"description": "app_store_unavailable", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
   }
  },
  "/v1/accounts/{accountId}/entitlements": {
   "get": {
    "operationId": "getEntitlements",
    "summary": "Subscriptions and purchases",
    "security": [{"bearer": []}],
    "parameters": [{"name": "accountId", "in": "path", "required": true, "example": "acct-unknown", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}, "description": ""}],
    "responses": {"200": {"description": "entitlements", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Entitlements"}}}}, "401": {"description": "no or unknown secret", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "403": {"description": "another account", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "404": {"description": "unknown account", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
   }
  },
  "/v1/accounts/{accountId}/issues": {
   "get": {
    "operationId": "getAccountIssues",
    "summary": "Visible issues with entitled flag and reasons",
    "security": [{"bearer": []}],
    "parameters": [{"name": "accountId", "in": "path", "required": true, "example": "acct-unknown", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}, "description": ""}, {"name": "publication", "in": "query", "required": false, "schema": {"type": "string"}, "description": "narrow to one publication"}, {"name": "entitled", "in": "query", "required": false, "schema": {"type": "boolean"}, "description": "only entitled issues"}, {"$ref": "#/components/parameters/Limit"}, {"$ref": "#/components/parameters/After"}, {"$ref": "#/components/parameters/IfNoneMatch"}, {"$ref": "#/components/parameters/AcceptEncoding"}],
    "responses": {"304": {"$ref": "#/components/responses/NotModified"}, "400": {"description": "limit or after malformed, or a header value with control characters", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "200": {"description": "issues, newest first", "headers": {"ETag": {"$ref": "#/components/headers/ETag"}, "Vary": {"$ref": "#/components/headers/Vary"}, "Content-Encoding": {"$ref": "#/components/headers/ContentEncoding"}}, "content": {"application/json": {"schema": {"type": "object", "required": ["issues"], "properties": {"issues": {"type": "array", "items": {"$ref": "#/components/schemas/AccountIssue"}}, "next": {"type": "string", "description": "cursor for ?after=, while more issues remain"}}}}}}, "401": {"description": "no or unknown secret", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "403": {"description": "another account", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "404": {"description": "unknown account or publication", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
   }
  },
  "/v1/accounts/{accountId}/publications/{publicationId}/issues/{issueId}/token": {
   "post": {
    "operationId": "issueToken",
    "summary": "A download token for an entitled issue",
    "security": [{"bearer": []}],
    "parameters": [{"name": "accountId", "in": "path", "required": true, "example": "acct-unknown", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}, "description": ""}, {"name": "publicationId", "in": "path", "required": true, "example": "monthly", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}, "description": ""}, {"name": "issueId", "in": "path", "required": true, "example": "2012-02", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}, "description": ""}],
    "responses": {"200": {"description": "the token", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Token"}}}}, "401": {"description": "no or unknown secret", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "403": {"description": "not_entitled, with reason", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "404": {"description": "an issue the reader cannot see", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
   }
  },
  "/v1/appstore/notifications": {
   "post": {
    "operationId": "appStoreNotification",
    "summary": "App Store server notifications V1 and V2",
    "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object"}}}},
    "responses": {"200": {"description": "taken", "content": {"application/json": {"schema": {"type": "object"}}}}, "400": {"description": "malformed", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "401": {"description": "wrong shared secret or signature", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "413": {"$ref": "#/components/responses/PayloadTooLarge"}, "503": {"description": "app_store_unavailable", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
   }
  },
  "/v1/accounts/{accountId}/history": {
   "get": {
    "operationId": "accountHistory",
    "summary": "Every fact as it arrived on the account, oldest first, with its source (recorded since the gateway had history)",
    "security": [{"bearer": []}],
    "parameters": [{"name": "accountId", "in": "path", "required": true, "example": "acct-unknown", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}}, {"name": "limit", "in": "query", "required": false, "schema": {"type": "integer", "minimum": 1, "maximum": 500}, "description": "at most this many events (default 500); next is answered while more remain"}, {"name": "after", "in": "query", "required": false, "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,32}$"}, "description": "the next member of the previous page"}],
    "responses": {"200": {"description": "events, oldest first", "content": {"application/json": {"schema": {"type": "object", "required": ["events"], "properties": {"events": {"type": "array", "items": {"type": "object", "required": ["at", "kind", "source"], "properties": {"at": {"type": "string", "format": "date-time"}, "kind": {"enum": ["transactionSeen", "transactionChanged", "refund", "refundReversed", "renewalInfoChanged", "ownershipBound", "ownershipTransferredAway", "grantGiven", "grantRevoked", "codeRedeemed", "operatorAction"]}, "source": {"enum": ["receipt", "signedTransaction", "notificationV1", "notificationV2", "serverApi", "poll", "grant", "code", "admin"]}, "environment": {"enum": ["production", "sandbox"]}, "originalTransactionId": {"type": "string"}, "transactionId": {"type": "string"}, "changes": {"type": "array", "items": {"type": "string"}}, "fromAccountId": {"type": "string"}, "toAccountId": {"type": "string"}, "grantId": {"type": "string"}}, "additionalProperties": true}}, "next": {"type": "string"}}}}}}, "400": {"description": "limit or after malformed", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "401": {"description": "no or unknown secret", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "403": {"description": "this secret may not act for the account", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "404": {"description": "no such account", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
   }
  },
  "/v1/accounts/{accountId}/timeline.svg": {
   "get": {
    "operationId": "accountTimeline",
    "summary": "The account's periods (active, grace, granted, refunded) against a publication's issues (entitled or not, reasons on hover), as SVG",
    "security": [{"bearer": []}],
    "parameters": [{"name": "accountId", "in": "path", "required": true, "example": "acct-unknown", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}}, {"name": "publication", "in": "query", "required": false, "schema": {"type": "string"}, "description": "default: the first publication the account touches"}, {"name": "from", "in": "query", "required": false, "schema": {"type": "string", "format": "date-time"}, "description": "start of the window (default: a month before the first period)"}, {"name": "to", "in": "query", "required": false, "schema": {"type": "string", "format": "date-time"}, "description": "end of the window (default: a month after the later of the last period and now); at most 100 years after from"}],
    "responses": {"200": {"description": "the picture", "content": {"image/svg+xml": {"schema": {"type": "string"}}}}, "400": {"description": "from or to malformed, from not before to, a window over 100 years, a parameter given twice", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "401": {"description": "no or unknown secret", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "403": {"description": "this secret may not act for the account", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "404": {"description": "no such account or publication", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
   }
  },
  "/v1/accounts/{accountId}/publications/{publicationId}/issues/{issueId}/explanation": {
   "get": {
    "operationId": "explainIssue",
    "summary": "Why this account may or may not download this issue (E20), with the evidence and a sentence for the reader",
    "parameters": [{"name": "accountId", "in": "path", "required": true, "example": "acct-unknown", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}}, {"name": "publicationId", "in": "path", "required": true, "example": "monthly", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}}, {"name": "issueId", "in": "path", "required": true, "example": "2012-02", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}}],
    "responses": {"200": {"description": "the explanation", "content": {"application/json": {"schema": {"type": "object", "required": ["issue", "entitled", "reasons", "summary", "evidence"], "properties": {"issue": {"type": "object"}, "entitled": {"type": "boolean"}, "reasons": {"type": "array", "items": {"enum": ["activePeriod", "gracePeriod", "unlockedAtStart", "purchased", "free", "granted", "notSubscribedWhenPublished", "refunded", "noPurchase", "scheduled", "retracted"]}}, "summary": {"type": "string"}, "evidence": {"type": "object", "required": ["periodContaining", "periodBefore", "periodAfter", "transaction", "refunded"], "properties": {"periodContaining": {"oneOf": [{"type": "null"}, {"type": "object", "required": ["start", "end"], "properties": {"start": {"type": "string", "format": "date-time"}, "end": {"type": ["string", "null"], "format": "date-time"}}}]}, "periodBefore": {"oneOf": [{"type": "null"}, {"type": "object", "required": ["start", "end"], "properties": {"start": {"type": "string", "format": "date-time"}, "end": {"type": ["string", "null"], "format": "date-time"}}}]}, "periodAfter": {"oneOf": [{"type": "null"}, {"type": "object", "required": ["start", "end"], "properties": {"start": {"type": "string", "format": "date-time"}, "end": {"type": ["string", "null"], "format": "date-time"}}}]}, "transaction": {"oneOf": [{"type": "null"}, {"type": "object", "required": ["transactionId", "originalTransactionId", "productId", "store", "environment", "purchaseDate"], "properties": {"transactionId": {"type": "string"}, "originalTransactionId": {"type": "string"}, "productId": {"type": "string"}, "store": {"enum": ["appStore", "googlePlay", "stripe"]}, "environment": {"enum": ["production", "sandbox"]}, "purchaseDate": {"type": "string", "format": "date-time"}, "expiresDate": {"type": ["string", "null"], "format": "date-time"}, "revocationDate": {"type": ["string", "null"], "format": "date-time"}}}]}, "refunded": {"oneOf": [{"type": "null"}, {"type": "object", "required": ["transactionId", "originalTransactionId", "productId", "store", "environment", "purchaseDate"], "properties": {"transactionId": {"type": "string"}, "originalTransactionId": {"type": "string"}, "productId": {"type": "string"}, "store": {"enum": ["appStore", "googlePlay", "stripe"]}, "environment": {"enum": ["production", "sandbox"]}, "purchaseDate": {"type": "string", "format": "date-time"}, "expiresDate": {"type": ["string", "null"], "format": "date-time"}, "revocationDate": {"type": ["string", "null"], "format": "date-time"}}}]}, "grant": {"oneOf": [{"type": "null"}, {"type": "object", "required": ["grantId", "source", "externalId", "publications", "start", "end"]}]}, "history": {"type": "array", "description": "the account's history events about the evidence's transactions (and grant) and their subscriptions' ownership, oldest first", "items": {"type": "object", "required": ["at", "kind", "source"]}}}}}}}}}, "401": {"description": "no or unknown secret", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "403": {"description": "this secret may not act for the account", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "404": {"description": "no such account or issue", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
   }
  },
  "/v1/accounts/{accountId}/grants": {
   "post": {
    "operationId": "giveGrant",
    "summary": "Give an account access no store sold (E21): print subscribers, comps; idempotent by (source, externalId)",
    "parameters": [{"name": "accountId", "in": "path", "required": true, "example": "acct-unknown", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}}],
    "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["source", "externalId", "publications", "start"], "properties": {"source": {"type": "string", "minLength": 1, "maxLength": 128}, "externalId": {"type": "string", "minLength": 1, "maxLength": 128}, "publications": {"type": "array", "minItems": 1, "items": {"type": "string"}}, "start": {"type": "string", "format": "date-time"}, "end": {"type": ["string", "null"], "format": "date-time"}, "note": {"type": ["string", "null"], "maxLength": 1000}}}}}},
    "responses": {"201": {"description": "given", "content": {"application/json": {"schema": {"type": "object", "required": ["grantId", "source", "externalId", "publications", "start", "end", "revokedAt"], "properties": {"grantId": {"type": "string"}, "source": {"type": "string"}, "externalId": {"type": "string"}, "publications": {"type": "array", "items": {"type": "string"}}, "start": {"type": "string", "format": "date-time"}, "end": {"type": ["string", "null"], "format": "date-time"}, "revokedAt": {"type": ["string", "null"], "format": "date-time"}, "note": {"type": ["string", "null"]}}}}}}, "200": {"description": "the same grant, sent again unchanged", "content": {"application/json": {"schema": {"type": "object", "required": ["grantId", "source", "externalId", "publications", "start", "end", "revokedAt"], "properties": {"grantId": {"type": "string"}, "source": {"type": "string"}, "externalId": {"type": "string"}, "publications": {"type": "array", "items": {"type": "string"}}, "start": {"type": "string", "format": "date-time"}, "end": {"type": ["string", "null"], "format": "date-time"}, "revokedAt": {"type": ["string", "null"], "format": "date-time"}, "note": {"type": ["string", "null"]}}}}}}, "400": {"description": "bad body: unknown publication, end before start", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "401": {"description": "no or unknown secret", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "403": {"description": "only service and admin keys", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "404": {"description": "no such account", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "409": {"description": "a grant with this source and externalId exists with other terms, or was revoked", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
   }
  },
  "/v1/accounts/{accountId}/grants/{grantId}": {
   "delete": {
    "operationId": "revokeGrant",
    "summary": "Revoke a grant (E6 for grants: as if never given)",
    "parameters": [{"name": "accountId", "in": "path", "required": true, "example": "acct-unknown", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}}, {"name": "grantId", "in": "path", "required": true, "example": "grant-unknown", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}}],
    "responses": {"200": {"description": "the grant, now revoked", "content": {"application/json": {"schema": {"type": "object", "required": ["grantId", "source", "externalId", "publications", "start", "end", "revokedAt"], "properties": {"grantId": {"type": "string"}, "source": {"type": "string"}, "externalId": {"type": "string"}, "publications": {"type": "array", "items": {"type": "string"}}, "start": {"type": "string", "format": "date-time"}, "end": {"type": ["string", "null"], "format": "date-time"}, "revokedAt": {"type": ["string", "null"], "format": "date-time"}, "note": {"type": ["string", "null"]}}}}}}, "401": {"description": "no or unknown secret", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "403": {"description": "only service and admin keys", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "404": {"description": "the account has no such grant", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
   }
  },
  "/v1/publications/{publicationId}/codes": {
   "post": {
    "operationId": "createCodes",
    "summary": "A batch of single-use access codes (E22), shown this once",
    "parameters": [{"name": "publicationId", "in": "path", "required": true, "example": "monthly", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}}],
    "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["count"], "properties": {"count": {"type": "integer", "minimum": 1, "maximum": 10000}, "issueId": {"type": "string"}, "duration": {"type": "string"}, "expiresAt": {"type": "string", "format": "date-time"}}}}}},
    "responses": {"201": {"description": "the batch and its codes", "content": {"application/json": {"schema": {"type": "object", "required": ["batchId", "codes"], "properties": {"batchId": {"type": "string"}, "codes": {"type": "array", "items": {"type": "string"}}}}}}}, "400": {"description": "bad body", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "401": {"description": "no or unknown secret", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "403": {"description": "not an editor of this publication", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "404": {"description": "no such publication", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
   }
  },
  "/v1/publications/{publicationId}/codes/{batchId}": {
   "get": {
    "operationId": "codeBatch",
    "summary": "A batch's terms and which codes were used, never the codes",
    "parameters": [{"name": "publicationId", "in": "path", "required": true, "example": "monthly", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}}, {"name": "batchId", "in": "path", "required": true, "example": "batch-unknown", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}}],
    "responses": {"200": {"description": "the batch", "content": {"application/json": {"schema": {"type": "object", "required": ["batchId", "publicationId", "count", "redeemed", "codes"], "properties": {"batchId": {"type": "string"}, "publicationId": {"type": "string"}, "issueId": {"type": ["string", "null"]}, "duration": {"type": ["string", "null"]}, "expiresAt": {"type": ["string", "null"], "format": "date-time"}, "createdAt": {"type": "string", "format": "date-time"}, "revokedAt": {"type": ["string", "null"], "format": "date-time"}, "count": {"type": "integer"}, "redeemed": {"type": "integer"}, "codes": {"type": "array", "items": {"type": "object", "properties": {"redeemedBy": {"type": ["string", "null"]}, "redeemedAt": {"type": ["string", "null"], "format": "date-time"}}}}}}}}}, "401": {"description": "no or unknown secret", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "403": {"description": "not an editor of this publication", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "404": {"description": "no such batch", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
   },
   "delete": {
    "operationId": "revokeCodeBatch",
    "summary": "Withdraw a batch: its unused codes stop working",
    "parameters": [{"name": "publicationId", "in": "path", "required": true, "example": "monthly", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}}, {"name": "batchId", "in": "path", "required": true, "example": "batch-unknown", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}}],
    "responses": {"200": {"description": "the batch, now revoked", "content": {"application/json": {"schema": {"type": "object", "required": ["batchId", "publicationId", "count", "redeemed", "codes"], "properties": {"batchId": {"type": "string"}, "publicationId": {"type": "string"}, "issueId": {"type": ["string", "null"]}, "duration": {"type": ["string", "null"]}, "expiresAt": {"type": ["string", "null"], "format": "date-time"}, "createdAt": {"type": "string", "format": "date-time"}, "revokedAt": {"type": ["string", "null"], "format": "date-time"}, "count": {"type": "integer"}, "redeemed": {"type": "integer"}, "codes": {"type": "array", "items": {"type": "object", "properties": {"redeemedBy": {"type": ["string", "null"]}, "redeemedAt": {"type": ["string", "null"], "format": "date-time"}}}}}}}}}, "401": {"description": "no or unknown secret", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "403": {"description": "not an editor of this publication", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "404": {"description": "no such batch", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
   }
  },
  "/v1/accounts/{accountId}/codes/redeem": {
   "post": {
    "operationId": "redeemCode",
    "summary": "Redeem an access code into a grant (E21, E22)",
    "parameters": [{"name": "accountId", "in": "path", "required": true, "example": "acct-unknown", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}}],
    "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["code"], "properties": {"code": {"type": "string"}}}}}},
    "responses": {"200": {"description": "the account's entitlements", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Entitlements"}}}}, "400": {"description": "bad body", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "401": {"description": "no or unknown secret", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "403": {"description": "may not act for the account", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "404": {"description": "code_not_found: unknown, used, expired or withdrawn; or no such account", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "409": {"description": "the code's issue was retracted", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "429": {"description": "rate_limited: too many failed redemptions", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
   }
  },
  "/v1/accounts/{accountId}/refresh": {
   "post": {
    "operationId": "refreshAccount",
    "summary": "Ask Apple now (App Store Server API: statuses and history; without credentials, the stored receipts re-verified) and answer the account's entitlements",
    "parameters": [{"name": "accountId", "in": "path", "required": true, "example": "acct-unknown", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}}],
    "responses": {"200": {"description": "the account's entitlements", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Entitlements"}}}}, "401": {"description": "no or unknown secret", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "403": {"description": "may not act for the account", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "404": {"description": "no such account", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "422": {"description": "receipt_rejected: a stored receipt Apple now refuses", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "429": {"description": "rate_limited: too many refreshes of this account", "headers": {"Retry-After": {"schema": {"type": "integer"}}}, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "502": {"description": "app_store_refused: Apple refused the request", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "503": {"description": "app_store_unavailable: Apple cannot be reached now", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
   }
  },
  "/v1/appstore/test-notification": {
   "post": {
    "operationId": "requestTestNotification",
    "summary": "Ask Apple to send a TEST notification (admin)",
    "responses": {"200": {"description": "Apple's token", "content": {"application/json": {"schema": {"type": "object", "required": ["testNotificationToken"], "properties": {"testNotificationToken": {"type": "string"}}}}}}, "401": {"description": "no or unknown secret", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "403": {"description": "only the admin key", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "502": {"description": "app_store_refused: Apple refused the request", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "409": {"description": "not_configured: no App Store Server API credentials", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "503": {"description": "app_store_unavailable: Apple cannot be reached now", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
   }
  },
  "/v1/appstore/backfill": {
   "post": {
    "operationId": "backfillNotifications",
    "summary": "Replay Apple's notification history for a window (admin); deduplicated by notificationUUID",
    "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["start", "end"], "properties": {"start": {"type": "string", "format": "date-time"}, "end": {"type": "string", "format": "date-time"}, "onlyFailures": {"type": "boolean"}}}}}},
    "responses": {"202": {"description": "accepted: the replay runs in the background", "content": {"application/json": {"schema": {"type": "object", "required": ["status", "start", "end", "onlyFailures"], "properties": {"status": {"enum": ["accepted"]}, "start": {"type": "string", "format": "date-time"}, "end": {"type": "string", "format": "date-time"}, "onlyFailures": {"type": "boolean"}}}}}}, "400": {"description": "bad body", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "401": {"description": "no or unknown secret", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "403": {"description": "only the admin key", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "409": {"description": "not_configured: no App Store Server API credentials", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "503": {"description": "app_store_unavailable: Apple cannot be reached now", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "429": {"description": "backfill windows are already being replayed", "headers": {"Retry-After": {"schema": {"type": "string"}}}, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
   }
  },
  "/v1/appstore/subscriptions/{originalTransactionId}/extend": {
   "post": {
    "operationId": "extendSubscription",
    "summary": "Extend a subscription's renewal date through Apple (admin), e.g. to compensate readers for a missed issue",
    "parameters": [{"name": "originalTransactionId", "in": "path", "required": true, "example": "2000000000000001", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}}],
    "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["days", "reasonCode"], "properties": {"days": {"type": "integer", "minimum": 1, "maximum": 90}, "reasonCode": {"type": "integer", "minimum": 0, "maximum": 3}, "note": {"type": "string", "maxLength": 1000}, "requestIdentifier": {"type": "string", "format": "uuid", "description": "Apple extends once per identifier: send the same one when retrying"}}}}}},
    "responses": {"200": {"description": "Apple's answer", "content": {"application/json": {"schema": {"type": "object", "required": ["originalTransactionId", "environment", "success"], "properties": {"originalTransactionId": {"type": "string"}, "environment": {"enum": ["production", "sandbox"]}, "success": {"type": "boolean"}, "effectiveDate": {"type": ["string", "null"], "format": "date-time"}, "webOrderLineItemId": {"type": ["string", "null"]}, "accountId": {"type": ["string", "null"]}}}}}}, "400": {"description": "bad body", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "401": {"description": "no or unknown secret", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "403": {"description": "only the admin key", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "404": {"description": "the App Store knows no such subscription", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "502": {"description": "app_store_refused: Apple refused the request", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "409": {"description": "not_configured: no App Store Server API credentials", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "503": {"description": "app_store_unavailable: Apple cannot be reached now", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
   }
  },
  "/v1/accounts/{accountId}/devices": {
   "post": {
    "operationId": "registerDevice",
    "summary": "Register an APNs device token for background notifications of new issues (at most 20 per account)",
    "parameters": [{"name": "accountId", "in": "path", "required": true, "example": "acct-unknown", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}}],
    "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["apnsToken"], "properties": {"platform": {"enum": ["ios"]}, "apnsToken": {"type": "string", "pattern": "^([0-9a-fA-F]{2}){32,100}$"}, "environment": {"enum": ["production", "sandbox"]}}}}}},
    "responses": {"201": {"description": "registered", "content": {"application/json": {"schema": {"type": "object", "required": ["platform", "apnsToken", "environment", "registeredAt"], "properties": {"platform": {"enum": ["ios"]}, "apnsToken": {"type": "string", "pattern": "^[0-9a-f]{64,200}$"}, "environment": {"enum": ["production", "sandbox"]}, "registeredAt": {"type": "string", "format": "date-time"}}}}}}, "200": {"description": "already registered for this account", "content": {"application/json": {"schema": {"type": "object", "required": ["platform", "apnsToken", "environment", "registeredAt"], "properties": {"platform": {"enum": ["ios"]}, "apnsToken": {"type": "string", "pattern": "^[0-9a-f]{64,200}$"}, "environment": {"enum": ["production", "sandbox"]}, "registeredAt": {"type": "string", "format": "date-time"}}}}}}, "400": {"description": "bad body: platform, token or environment", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "401": {"description": "no or unknown secret", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "403": {"description": "this secret may not act for the account", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "404": {"description": "no such account", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "409": {"description": "the account has 20 devices already", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
   }
  },
  "/v1/accounts/{accountId}/devices/{apnsToken}": {
   "delete": {
    "operationId": "removeDevice",
    "summary": "Remove a device token: no more notifications to it",
    "parameters": [{"name": "accountId", "in": "path", "required": true, "example": "acct-unknown", "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "not": {"enum": [".", ".."]}}}, {"name": "apnsToken", "in": "path", "required": true, "example": "abababababababababababababababababababababababababababababababab", "schema": {"type": "string", "pattern": "^([0-9a-fA-F]{2}){32,100}$"}}],
    "responses": {"200": {"description": "removed", "content": {"application/json": {"schema": {"type": "object", "required": ["apnsToken"], "properties": {"apnsToken": {"type": "string"}}}}}}, "401": {"description": "no or unknown secret", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "403": {"description": "this secret may not act for the account", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "404": {"description": "no such account or device", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
   }
  },
  "/v1/lookup": {
   "get": {
    "operationId": "lookup",
    "summary": "The account that owns an original transaction, a transaction, an appAccountToken, or an account by id (service and admin keys)",
    "parameters": [{"name": "originalTransactionId", "in": "query", "required": false, "schema": {"type": "string", "minLength": 1}}, {"name": "transactionId", "in": "query", "required": false, "schema": {"type": "string", "minLength": 1}}, {"name": "appAccountToken", "in": "query", "required": false, "schema": {"type": "string", "minLength": 1}}, {"name": "accountId", "in": "query", "required": false, "schema": {"type": "string", "minLength": 1}}, {"name": "environment", "in": "query", "required": false, "schema": {"enum": ["production", "sandbox"]}, "description": "narrows a transaction lookup; absent: production, then sandbox"}],
    "responses": {"200": {"description": "the owner", "content": {"application/json": {"schema": {"type": "object", "required": ["accountId"], "properties": {"accountId": {"type": "string"}, "environment": {"enum": ["production", "sandbox"]}, "originalTransactionId": {"type": "string"}, "transactionId": {"type": "string"}, "appAccountToken": {"type": "string"}, "createdAt": {"type": "string", "format": "date-time"}}}}}}, "400": {"description": "not exactly one of the four ids", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "401": {"description": "no or unknown secret", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "403": {"description": "an editor or account secret", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "404": {"description": "nobody owns it", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
   }
  },
  "/v1/edge/verify": {
   "get": {
    "operationId": "edgeVerify",
    "summary": "nginx auth_request check of a download token",
    "parameters": [{"name": "X-Original-URI", "in": "header", "required": true, "schema": {"type": "string"}}, {"name": "X-Original-Method", "in": "header", "required": false, "schema": {"enum": ["GET", "HEAD"]}}],
    "responses": {"204": {"description": "the token allows the path"}, "400": {"description": "a malformed request: a header value with control characters, a repeated X-Original-URI, X-Original-Method or Authorization"}, "401": {"description": "no token, malformed, bad signature, unknown key, expired"}, "403": {"description": "a valid token for another path or method"}}
   }
  }
 },
 "components": {
  "schemas": {
   "Error": {
    "type": "object",
    "required": ["error"],
    "properties": {"error": {"type": "object", "required": ["code", "message"], "properties": {"code": {"type": "string"}, "message": {"type": "string"}}, "additionalProperties": true}}
   },
   "Publication": {
    "type": "object",
    "required": ["id", "title"],
    "properties": {"id": {"type": "string"}, "title": {"type": "string", "minLength": 1, "maxLength": 500}}
   },
   "IssueRef": {
    "type": "object",
    "required": ["publicationId", "issueId"],
    "properties": {"publicationId": {"type": "string"}, "issueId": {"type": "string"}}
   },
   "ProductBody": {
    "type": "object",
    "required": ["kind", "grants"],
    "properties": {"store": {"enum": ["appStore", "googlePlay", "stripe"], "default": "appStore"}, "storeProductId": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$", "description": "the App Store or Play product id or the Stripe price id; default: the product's id; (store, storeProductId) is unique"}, "kind": {"enum": ["autoRenewable", "nonRenewing", "issue", "free"]}, "grants": {"type": "array", "items": {"type": "string"}}, "subscriptionGroup": {"type": ["string", "null"]}, "level": {"type": ["integer", "null"]}, "duration": {"type": ["string", "null"]}, "issue": {"oneOf": [{"$ref": "#/components/schemas/IssueRef"}, {"type": "null"}]}, "platform": {"type": ["string", "null"]}, "discontinuedAt": {"oneOf": [{"type": "string", "format": "date-time"}, {"type": "null"}]}}
   },
   "Asset": {
    "type": "object",
    "required": ["path"],
    "properties": {"path": {"type": "string"}, "bytes": {"type": "integer"}, "sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"}}
   },
   "IssueBody": {
    "type": "object",
    "required": ["id", "title", "publishedAt"],
    "properties": {"id": {"type": "string"}, "title": {"type": "string", "minLength": 1, "maxLength": 500}, "publishedAt": {"type": "string", "format": "date-time"}, "free": {"type": "boolean"}, "assets": {"type": "array", "items": {"$ref": "#/components/schemas/Asset"}}}
   },
   "Issue": {
    "allOf": [{"type": "object", "required": ["id", "title", "publishedAt"], "properties": {"id": {"type": "string"}, "title": {"type": "string", "minLength": 1, "maxLength": 500}, "publishedAt": {"type": "string", "format": "date-time"}, "free": {"type": "boolean"}, "assets": {"type": "array", "items": {"$ref": "#/components/schemas/Asset"}}}}, {"type": "object", "required": ["publicationId", "state"], "properties": {"publicationId": {"type": "string"}, "state": {"enum": ["scheduled", "published", "retracted"]}}}]
   },
   "AccountIssue": {
    "type": "object",
    "required": ["publicationId", "id", "title", "publishedAt", "free", "entitled", "reasons", "assets"],
    "properties": {"publicationId": {"type": "string"}, "id": {"type": "string"}, "title": {"type": "string", "minLength": 1, "maxLength": 500}, "publishedAt": {"type": "string", "format": "date-time"}, "free": {"type": "boolean"}, "entitled": {"type": "boolean"}, "reasons": {"type": "array", "items": {"enum": ["activePeriod", "gracePeriod", "unlockedAtStart", "purchased", "free", "notSubscribedWhenPublished", "refunded", "noPurchase"]}}, "assets": {"type": "array", "items": {"$ref": "#/components/schemas/Asset"}}}
   },
   "Key": {
    "type": "object",
    "required": ["keyId", "role", "publications", "key"],
    "properties": {"keyId": {"type": "string"}, "role": {"enum": ["editor", "service"]}, "publications": {"type": "array", "items": {"type": "string"}}, "key": {"type": "string"}}
   },
   "Token": {
    "type": "object",
    "required": ["token", "expiresAt", "urls"],
    "properties": {"token": {"type": "string"}, "expiresAt": {"type": "string", "format": "date-time"}, "urls": {"type": "array", "items": {"type": "string", "format": "uri"}}}
   },
   "Entitlements": {
    "type": "object",
    "required": ["accountId", "subscriptions", "purchases", "grants"],
    "properties": {"grants": {"type": "array", "items": {"type": "object", "required": ["grantId", "source", "externalId", "publications", "start", "end", "revokedAt"]}}, "accountId": {"type": "string"}, "subscriptions": {"type": "array", "items": {"type": "object", "properties": {"originalTransactionId": {"type": "string"}, "productId": {"type": "string"}, "store": {"enum": ["appStore", "googlePlay", "stripe"]}, "environment": {"enum": ["production", "sandbox"]}, "state": {"enum": ["active", "activeAutoRenewOff", "gracePeriod", "billingRetry", "expiredVoluntary", "expiredBilling", "expiredPriceIncrease", "expiredProductUnavailable", "expiredOther", "revoked"]}, "entitlementCode": {"type": "number"}, "expiresAt": {"type": ["string", "null"]}, "willRenew": {"type": "boolean"}, "renewsInto": {"type": ["string", "null"]}, "gracePeriodExpiresAt": {"type": ["string", "null"]}, "renewals": {"type": "integer"}, "grants": {"type": "array", "items": {"type": "string"}}}}}, "purchases": {"type": "array", "items": {"type": "object", "properties": {"productId": {"type": "string"}, "transactionId": {"type": "string"}, "store": {"enum": ["appStore", "googlePlay", "stripe"]}, "environment": {"enum": ["production", "sandbox"]}, "issue": {"oneOf": [{"$ref": "#/components/schemas/IssueRef"}, {"type": "null"}]}, "state": {"type": "string"}}}}}
   },
   "Product": {
    "allOf": [{"$ref": "#/components/schemas/ProductBody"}, {"type": "object", "required": ["id", "store", "storeProductId"], "properties": {"id": {"type": "string"}}}]
   }
  },
  "securitySchemes": {
   "bearer": {"type": "http", "scheme": "bearer", "description": "admin key, editor key, service key or account token"}
  },
  "parameters": {
   "IfNoneMatch": {"name": "If-None-Match", "in": "header", "required": false, "schema": {"type": "string"}, "description": "entity tags of lists the client holds, or *: 304 when one is current (RFC 9110 §13.1.2)"},
   "AcceptEncoding": {"name": "Accept-Encoding", "in": "header", "required": false, "schema": {"type": "string"}, "description": "gzip (q above 0) gets JSON answers over 1 KiB gzip-coded"},
   "Limit": {"name": "limit", "in": "query", "required": false, "schema": {"type": "integer", "minimum": 1, "maximum": 500}, "description": "at most this many issues; next is answered while more remain"},
   "After": {"name": "after", "in": "query", "required": false, "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,512}$"}, "description": "the next member of the previous page"}
  },
  "headers": {
   "ETag": {"description": "strong entity tag of the list's content (and coding)", "schema": {"type": "string"}},
   "Vary": {"description": "Accept-Encoding", "schema": {"type": "string"}},
   "ContentEncoding": {"description": "gzip when the answer is gzip-coded", "schema": {"enum": ["gzip"]}}
  },
  "responses": {
   "NotModified": {
    "description": "the list the client holds (If-None-Match) is current; no body",
    "headers": {"ETag": {"$ref": "#/components/headers/ETag"}, "Vary": {"$ref": "#/components/headers/Vary"}}
   },
   "PayloadTooLarge": {
    "description": "payload_too_large: the body is larger than the route allows",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
   }
  }
 }
}
"""#
}
