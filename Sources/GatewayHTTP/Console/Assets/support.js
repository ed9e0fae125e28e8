// Support: find an account by any id it is known by, then its subscriptions, purchases and
// grants, its issues with their reasons, the timeline picture, the history, and the explanation
// of any issue ("why can't this reader open the May issue?").
import { call, get, enc, pictureURL } from './api.js';
import { el, byId, show, say, table, when, badge, attempt, fields, list, nowInstant, confirmingButton, rowFilter, showPicture }
  from './dom.js';
import { showSignIn } from './signin.js';

let publications = [];
let account = null;

/// What `/v1/lookup` takes, in the order a pasted id is tried.
const idKinds = [
  ['accountId', 'account id'],
  ['originalTransactionId', 'original transaction id'],
  ['transactionId', 'transaction id'],
  ['appAccountToken', 'appAccountToken'],
  ['stripeSubscriptionId', 'Stripe subscription'],
  ['purchaseToken', 'Google Play purchase token'],
  ['orderId', 'Google Play order id'],
  ['email', 'email'],
];
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function start(can) {
  publications = can.publications;
  byId('lookup-form').addEventListener('submit', lookup);
  byId('account-publication').addEventListener('change', showIssues);
  byId('entitled-only').addEventListener('change', showIssues);
  byId('timeline-range').addEventListener('submit', (event) => {
    event.preventDefault();
    showTimeline(byId('account-publication').value);
  });
  byId('grant-form').addEventListener('submit', giveGrant);
}

/// Tries the id as each kind in turn (an appAccountToken only when it is a UUID); the first owner
/// found wins. A 404 means "not this kind"; any other failure is shown as the API says it.
async function lookup(event) {
  event.preventDefault();
  const id = fields(event.target).id;
  const where = byId('lookup-result');
  const view = byId('account');
  // Busy from the first moment: the account shown before is about to be replaced, even when the
  // same account is looked up again.
  view.setAttribute('aria-busy', 'true');
  show(where);
  for (const [name, label] of idKinds) {
    if (name === 'appAccountToken' && !uuid.test(id)) continue;
    if (name === 'stripeSubscriptionId' && !id.startsWith('sub_')) continue;
    if (name === 'email' && !id.includes('@')) continue;
    try {
      const found = await get('/v1/lookup?' + name + '=' + enc(id));
      return open(found, label);
    } catch (e) {
      if (e.status !== 404) {
        view.setAttribute('aria-busy', 'false');
        return say(where, e.message);
      }
    }
  }
  view.hidden = true;
  view.setAttribute('aria-busy', 'false');
  say(where, 'Nobody holds ' + id + ' as an account id, a transaction id, an appAccountToken, a Stripe subscription or a Google Play token or order.');
}

async function open(found, label) {
  account = found.accountId;
  const view = byId('account');
  view.setAttribute('aria-busy', 'true');
  // Nothing of the account shown before stays while this one loads.
  for (const id of ['entitlements', 'timeline', 'explanation', 'account-issues', 'history', 'sign-in']) show(byId(id));
  view.hidden = false;
  show(byId('account-id'), account);
  const how = [label === 'account id' ? 'Found by its account id' : 'Found by ' + label + ' ' + (found[idKinds.find(([, l]) => l === label)[0]] || '')];
  if (found.store) how.push('store ' + found.store);
  if (found.environment) how.push('environment ' + found.environment);
  if (found.createdAt) how.push('created ' + when(found.createdAt));
  show(byId('account-found'), how.join(' · '));
  show(byId('grant-result'));
  byId('grant-form').elements.start.value = nowInstant();
  const entitlements = await loadEntitlements();
  choosePublication(entitlements);
  await Promise.all([showIssues(), showHistory(),
    showSignIn(byId('sign-in'), account, (id) => open({ accountId: id }, 'account id'), found.accounts)]);
  view.setAttribute('aria-busy', 'false');
}

async function loadEntitlements() {
  const where = byId('entitlements');
  const e = await attempt(where, () => get('/v1/accounts/' + enc(account) + '/entitlements'));
  if (!e) return null;
  const parts = [];
  parts.push(el('h3', {}, 'Subscriptions'));
  parts.push(e.subscriptions.length === 0 ? el('p', { class: 'hint' }, 'None.') : table(
    ['Store', 'Product', 'Original transaction', 'State', 'Code', 'Expires', 'Renews', 'Grace until', 'Renewals', 'Grants'],
    e.subscriptions.map((s) => ({
      cells: [
        s.store,
        { cell: s.productId, class: 'mono' },
        { cell: s.originalTransactionId + (s.environment === 'sandbox' ? ' (sandbox)' : ''), class: 'mono' },
        badge(s.state, stateKind(s.state)),
        { cell: String(s.entitlementCode), class: 'num' },
        when(s.expiresAt),
        s.willRenew ? 'yes' + (s.renewsInto && s.renewsInto !== s.productId ? ', into ' + s.renewsInto : '') : 'no',
        when(s.gracePeriodExpiresAt),
        { cell: String(s.renewals), class: 'num' },
        s.grants.join(', '),
      ],
    })), { class: 'subscriptions' }));
  if (e.purchases.length > 0) {
    parts.push(el('h3', {}, 'Purchases'));
    parts.push(table(['Store', 'Product', 'Transaction', 'Issue', 'State'], e.purchases.map((p) => ({
      cells: [p.store, { cell: p.productId, class: 'mono' }, { cell: p.transactionId, class: 'mono' },
        p.issue ? p.issue.publicationId + '/' + p.issue.issueId : '—', badge(p.state, stateKind(p.state))],
    }))));
  }
  parts.push(el('h3', {}, 'Grants'));
  const grants = e.grants || [];
  parts.push(grants.length === 0 ? el('p', { class: 'hint' }, 'None.') : table(
    ['Grant', 'Source', 'External id', 'Publications', 'From', 'Until', 'Note', ''],
    grants.map((g) => ({
      cells: [{ cell: g.grantId, class: 'mono' }, g.source, g.externalId, g.publications.join(', '), when(g.start),
        g.end ? when(g.end) : 'for good', g.note || '',
        g.revokedAt ? badge('revoked ' + when(g.revokedAt).slice(0, 10), 'revoked')
          : confirmingButton('Revoke', 'Revoke: sure?', () => revokeGrant(g.grantId))],
    }))));
  show(where, parts);
  return e;
}

/// E24: how a transaction was revoked ("void" or a cut) and the share returned, as support reads it.
function revocation(t) {
  const kind = t.revocationType && t.revocationType !== 'void' ? 'cut (' + t.revocationType + ')' : 'refunded';
  const share = t.revocationPercentage != null ? ', ' + (t.revocationPercentage / 1000) + ' % returned' : '';
  return kind + ' ' + when(t.revocationDate) + share;
}

function stateKind(state) {
  if (state === 'active' || state === 'activeAutoRenewOff') return 'published';
  if (state === 'gracePeriod' || state === 'billingRetry') return 'scheduled';
  return 'retracted';
}

/// The publication the account touches first (http-api.md: the timeline's default), else the first.
function choosePublication(e) {
  const touched = [];
  if (e) {
    for (const s of e.subscriptions) touched.push(...s.grants);
    for (const p of e.purchases) if (p.issue) touched.push(p.issue.publicationId);
    for (const g of e.grants || []) touched.push(...g.publications);
  }
  const select = byId('account-publication');
  show(select, publications.map((p) => el('option', { value: p.id }, p.title + ' (' + p.id + ')')));
  const first = touched.find((id) => publications.some((p) => p.id === id));
  if (first) select.value = first;
}

async function showIssues() {
  const publication = byId('account-publication').value;
  const list = byId('account-issues');
  list.setAttribute('aria-busy', 'true');
  show(byId('explanation'));
  const entitledOnly = byId('entitled-only').checked;
  const path = '/v1/accounts/' + enc(account) + '/issues?publication=' + enc(publication)
    + (entitledOnly ? '&entitled=true' : '');
  const where = byId('account-issues');
  await Promise.all([showTimeline(publication), (async () => {
    const answer = await attempt(where, () => get(path));
    if (!answer) return;
    const entitledCount = answer.issues.filter((i) => i.entitled).length;
    show(where,
      el('div', { class: 'list-head' },
        el('span', { class: 'hint' }, answer.issues.length + ' issues, ' + entitledCount + ' entitled. "Why?" explains one.'),
        rowFilter(where, 'Find an issue: May 2012, 2012-05…')),
      table(['Id', 'Title', 'Published at', 'Entitled', 'Reasons', ''], answer.issues.map((issue) => ({
        attributes: { 'data-issue': issue.id, class: issue.entitled ? 'entitled' : 'not-entitled' },
        cells: [
          { cell: issue.id, class: 'mono' }, issue.title, when(issue.publishedAt),
          issue.entitled ? badge('yes', 'published') : badge('no', 'retracted'),
          issue.reasons.join(', '),
          { cell: el('button', { type: 'button', class: 'quiet why', onclick: () => explain(publication, issue.id) }, 'Why?'), class: 'actions' },
        ],
      })), { class: 'account-issues' }));
  })()]);
  list.setAttribute('aria-busy', 'false');
}

/// The picture is fetched with the key and shown from a `blob:` URL (the CSP allows `img-src blob:`).
async function showTimeline(publication) {
  const where = byId('timeline');
  const range = fields(byId('timeline-range'));
  const path = '/v1/accounts/' + enc(account) + '/timeline.svg?publication=' + enc(publication)
    + (range.from ? '&from=' + enc(range.from + 'T00:00:00Z') : '') + (range.to ? '&to=' + enc(range.to + 'T00:00:00Z') : '');
  await showPicture(where, () => pictureURL(path), 'Timeline',
    'Timeline of the account\'s periods and the publication\'s issues', 'timeline', 'Open full size (reasons on hover)');
}

async function explain(publication, issueId) {
  const where = byId('explanation');
  const path = '/v1/accounts/' + enc(account) + '/publications/' + enc(publication) + '/issues/' + enc(issueId) + '/explanation';
  const x = await attempt(where, () => get(path));
  if (!x) return;
  const evidence = x.evidence || {};
  const period = (p) => p ? when(p.start) + ' → ' + (p.end ? when(p.end) : 'open') : '—';
  const transaction = (t) => t ? t.transactionId + ' (' + (t.store ? t.store + ' ' : '') + t.productId + ', ' + when(t.purchaseDate)
    + (t.expiresDate ? ' → ' + when(t.expiresDate) : '') + (t.revocationDate ? ', ' + revocation(t) : '') + ')' : '—';
  const facts = [
    ['Issue', x.issue.title + ' (' + x.issue.id + '), published ' + when(x.issue.publishedAt)],
    ['Entitled', x.entitled ? 'yes' : 'no'],
    ['Reasons', x.reasons.join(', ')],
    ['Period containing it', period(evidence.periodContaining)],
    ['Nearest period before', period(evidence.periodBefore)],
    ['Nearest period after', period(evidence.periodAfter)],
    ['Entitling transaction', transaction(evidence.transaction)],
    ['Refunded transaction', transaction(evidence.refunded)],
  ];
  show(where, el('div', { class: 'explanation ' + (x.entitled ? 'entitled' : 'not-entitled') },
    el('button', { type: 'button', class: 'quiet close', onclick: () => show(where) }, 'Close'),
    el('h3', {}, 'Why ', x.entitled ? 'this reader may open ' : 'this reader may not open ', el('q', {}, x.issue.title)),
    el('blockquote', { class: 'summary' }, x.summary),
    el('dl', { class: 'facts' }, facts.map(([name, value]) => el('div', {}, el('dt', {}, name), el('dd', {}, value))))));
  where.scrollIntoView({ block: 'nearest' });
}

/// Oldest first, a page at a time (`next` while more remain).
async function showHistory() {
  const where = byId('history');
  const path = '/v1/accounts/' + enc(account) + '/history';
  const answer = await attempt(where, () => get(path));
  if (!answer) return;
  if (answer.events.length === 0) return show(where, el('p', { class: 'hint' }, 'Nothing recorded yet.'));
  const events = el('ol', { class: 'history' });
  show(where, events);
  showEvents(answer, events, where, path);
}

/// An event's field as text: instants as dates, lists and objects as JSON.
function detail(value) {
  if (typeof value === 'string') return /^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(value) ? when(value) : value;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function showEvents(page, events, where, path) {
  for (const event of page.events) {
    const rest = Object.entries(event).filter(([name, value]) => !['at', 'kind', 'source'].includes(name) && value !== null);
    events.appendChild(el('li', {},
      el('div', {}, el('strong', {}, event.kind), ' ', el('span', { class: 'badge badge-source' }, event.source),
        ' ', el('span', { class: 'at' }, when(event.at))),
      rest.length ? el('dl', { class: 'detail' }, rest.map(([name, value]) =>
        el('div', {}, el('dt', {}, name), el('dd', {}, detail(value))))) : null));
  }
  if (!page.next) return;
  const more = el('button', { type: 'button', class: 'quiet more' }, 'Show later events');
  more.addEventListener('click', async () => {
    more.remove();
    try {
      showEvents(await get(path + '?after=' + enc(page.next)), events, where, path);
    } catch (e) {
      where.appendChild(el('p', { class: 'message message-error', role: 'alert' }, e.message));
    }
  });
  where.appendChild(more);
}

async function giveGrant(event) {
  event.preventDefault();
  const v = fields(event.target);
  const body = { source: v.source, externalId: v.externalId, publications: list(v.publications), start: v.start,
    end: v.end || null };
  if (v.note) body.note = v.note;
  const where = byId('grant-result');
  const answer = await attempt(where, () => call('POST', '/v1/accounts/' + enc(account) + '/grants', body));
  if (!answer) return;
  say(where, 'Granted ' + answer.publications.join(', ') + ' as ' + answer.grantId + '.', 'ok');
  await refresh();
}

async function revokeGrant(grantId) {
  const where = byId('grant-result');
  const answer = await attempt(where, () => call('DELETE', '/v1/accounts/' + enc(account) + '/grants/' + enc(grantId)));
  if (!answer) return;
  say(where, 'Revoked ' + grantId + '.', 'ok');
  await refresh();
}

async function refresh() {
  await loadEntitlements();
  await Promise.all([showIssues(), showHistory()]);
}
