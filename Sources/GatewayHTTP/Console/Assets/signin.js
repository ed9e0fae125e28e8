// Support: how a reader signs in (readers.md): the account's identities (provider, subject,
// the kept email), its live sessions (E34: device, when made and last used; support may end
// one) and its merges (E32: the accounts merged into it, or the account it was merged into).
import { call, get, enc } from './api.js';
import { el, show, say, table, when, attempt, confirmingButton } from './dom.js';

/// Shows the account's sign-in facts in `where`; `open(id)` opens another account (a merge's
/// other side); `identities` are those a lookup by email found already, if any.
export async function showSignIn(where, account, open, identities) {
  show(where);
  let sessions;
  try {
    sessions = (await get('/v1/accounts/' + enc(account) + '/sessions')).sessions;
  } catch (e) {
    if (e.code === 'account_merged') return show(where, mergedInto(e, open));
    return say(where, e.message);
  }
  const parts = [el('h3', {}, 'Identities'), await identityList(account, identities)];
  parts.push(el('h3', {}, 'Sessions'));
  parts.push(sessions.length === 0 ? el('p', { class: 'hint' }, 'No live session.') : table(
    ['Device', 'Platform', 'Signed in', 'Last used', ''],
    sessions.map((s) => ({
      attributes: { 'data-session': s.sessionId },
      cells: [s.device.name || s.device.id || 'first session', s.device.platform || '—', when(s.createdAt), when(s.lastUsedAt),
        confirmingButton('End', 'End: sure?', () => endSession(where, account, s.sessionId, open))],
    })), { class: 'sessions' }));
  parts.push(el('h3', {}, 'Merged from'));
  parts.push(await mergedFrom(account, open));
  show(where, parts);
}

/// A merged account answers `account_merged` with the account it went to.
function mergedInto(error, open) {
  const target = error.mergedInto;
  return el('p', { class: 'message message-info merged' }, 'Merged into ',
    el('button', { type: 'button', class: 'quiet', onclick: () => open(target) }, target), '.');
}

/// E35's export holds the identities; where it is not served, only a lookup by email shows them.
async function identityList(account, known) {
  let identities = known ? known.filter((i) => i.accountId === account) : null;
  if (!identities) {
    try {
      identities = (await get('/v1/accounts/' + enc(account) + '/export')).identities;
    } catch (e) {
      return el('p', { class: 'hint' }, 'Look the account up by email to see its identities.');
    }
  }
  if (!identities || identities.length === 0) return el('p', { class: 'hint' }, 'None: an anonymous account.');
  return table(['Provider', 'Subject', 'Email'], identities.map((i) => ({
    cells: [i.provider, { cell: i.subject, class: 'mono' }, i.email || '—'],
  })), { class: 'identities' });
}

/// The `merged` events of the account's history that name an account merged into it.
async function mergedFrom(account, open) {
  const merged = [];
  let path = '/v1/accounts/' + enc(account) + '/history';
  for (let page = 0; page < 20 && path; page += 1) {
    const answer = await attempt(null, () => get(path)).catch(() => null);
    if (!answer) break;
    for (const e of answer.events) if (e.kind === 'merged' && e.mergedFrom) merged.push(e);
    path = answer.next ? '/v1/accounts/' + enc(account) + '/history?after=' + enc(answer.next) : null;
  }
  if (merged.length === 0) return el('p', { class: 'hint' }, 'No account was merged into this one.');
  return el('ul', { class: 'merges' }, merged.map((e) => el('li', {},
    el('button', { type: 'button', class: 'quiet', onclick: () => open(e.mergedFrom) }, e.mergedFrom), ' ', when(e.at))));
}

async function endSession(where, account, sessionId, open) {
  try {
    await call('DELETE', '/v1/accounts/' + enc(account) + '/sessions/' + enc(sessionId));
  } catch (e) {
    return say(where, e.message);
  }
  await showSignIn(where, account, open);
}
