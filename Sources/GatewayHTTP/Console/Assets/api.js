// The gateway's API as the console calls it. The key lives only in this module's variable, in
// the tab's memory: never in a URL (logs, history, Referer), a cookie (sent on its own, readable
// by any page of the origin) or Web Storage (kept on disk, readable by any script of the origin).
// Reloading or closing the tab forgets it.
let secret = null;

export function signIn(key) { secret = key; }
export function signOut() { secret = null; }

/// An answer that is not a success: the API's own `code` and `message` (http-api.md, Conventions).
export class APIError extends Error {
  constructor(status, code, message, error = {}) {
    super(message);
    this.status = status;
    this.code = code;
    /// E32: an `account_merged` answer's account.
    this.mergedInto = error.mergedInto || null;
  }
}

export const enc = encodeURIComponent;

async function send(method, path, body) {
  const headers = { Accept: 'application/json' };
  if (secret !== null) headers.Authorization = 'Bearer ' + secret;
  const init = { method, headers, cache: 'no-store', credentials: 'omit', redirect: 'error' };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  try {
    return await fetch(path, init);
  } catch (e) {
    throw new APIError(0, 'unreachable', 'The gateway could not be reached.');
  }
}

async function failure(response) {
  let error = null;
  try { error = (await response.json()).error; } catch (e) { /* not the API's shape */ }
  if (error && typeof error.message === 'string') {
    return new APIError(response.status, String(error.code), error.message, error);
  }
  return new APIError(response.status, 'http_' + response.status, 'The gateway answered ' + response.status + '.');
}

/// JSON in and out; throws `APIError` with the API's message on any other status than 2xx.
export async function call(method, path, body) {
  const response = await send(method, path, body);
  if (!response.ok) throw await failure(response);
  return response.status === 204 ? null : response.json();
}

export const get = (path) => call('GET', path);

/// A picture fetched with the key, as a `blob:` URL the page can show (the key cannot go in an
/// `<img src>`). The caller revokes the URL when it is replaced.
export async function pictureURL(path) {
  const response = await send('GET', path);
  if (!response.ok) throw await failure(response);
  return URL.createObjectURL(await response.blob());
}
