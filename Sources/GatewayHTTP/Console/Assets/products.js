// Admin: products (create, change, discontinue, reinstate) and editor and service keys.
import { call, get, enc } from './api.js';
import { el, byId, show, say, table, when, badge, attempt, fields, list, nowInstant } from './dom.js';
import * as readers from './readers.js';

export function start() {
  byId('product-form').addEventListener('submit', saveProduct);
  byId('key-form').addEventListener('submit', createKey);
  byId('revoke-form').addEventListener('submit', revokeKey);
  loadProducts();
  readers.start();
}

async function loadProducts() {
  const answer = await attempt(byId('products-result'), () => get('/v1/products?all=true'));
  if (!answer) return;
  const rows = answer.products.map((p) => ({
    attributes: { 'data-product': p.id },
    cells: [
      { cell: p.id, class: 'mono' },
      p.kind,
      p.grants.join(', '),
      { cell: terms(p), class: 'nowrap' },
      (p.platform || '') + (p.store && p.store !== 'appStore' ? ' (' + p.store + ')' : ''),
      p.discontinuedAt ? badge('discontinued ' + when(p.discontinuedAt).slice(0, 10), 'retracted') : badge('on offer', 'published'),
      { cell: actions(p), class: 'actions' },
    ],
  }));
  show(byId('product-list'), table(['Id', 'Kind', 'Grants', 'Group, duration or issue', 'Platform', 'Offer', ''], rows));
}

/// What the kind adds: the group and level, the duration, or the issue.
function terms(p) {
  if (p.subscriptionGroup) return p.subscriptionGroup + (p.level ? ' · level ' + p.level : '');
  if (p.duration) return p.duration;
  if (p.issue) return p.issue.publicationId + '/' + p.issue.issueId;
  return '';
}

function actions(product) {
  const change = el('button', { type: 'button', class: 'quiet', onclick: () => edit(product) }, 'Change');
  const toggle = product.discontinuedAt
    ? el('button', { type: 'button', class: 'quiet', onclick: () => put(product.id, { ...bodyOf(product), discontinuedAt: null }) }, 'Reinstate')
    : el('button', { type: 'button', class: 'danger', onclick: () => put(product.id, { ...bodyOf(product), discontinuedAt: nowInstant() }) }, 'Discontinue');
  return [change, toggle];
}

/// The product body of http-api.md from a product answer.
function bodyOf(p) {
  return { kind: p.kind, grants: p.grants, subscriptionGroup: p.subscriptionGroup, level: p.level,
    duration: p.duration, issue: p.issue, platform: p.platform, discontinuedAt: p.discontinuedAt };
}

function edit(p) {
  const f = byId('product-form').elements;
  f.id.value = p.id;
  f.kind.value = p.kind;
  f.grants.value = p.grants.join(', ');
  f.subscriptionGroup.value = p.subscriptionGroup || '';
  f.level.value = p.level ?? '';
  f.duration.value = p.duration || '';
  f.issue.value = p.issue ? p.issue.publicationId + '/' + p.issue.issueId : '';
  f.platform.value = p.platform || '';
  f.discontinuedAt.value = p.discontinuedAt || '';
  byId('product-form').scrollIntoView({ block: 'nearest' });
}

async function saveProduct(event) {
  event.preventDefault();
  const v = fields(event.target);
  const body = { kind: v.kind, grants: list(v.grants) };
  if (v.subscriptionGroup) body.subscriptionGroup = v.subscriptionGroup;
  if (v.level) body.level = Number(v.level);
  if (v.duration) body.duration = v.duration;
  if (v.issue) {
    const [publicationId, ...rest] = v.issue.split('/');
    body.issue = { publicationId, issueId: rest.join('/') };
  }
  if (v.platform) body.platform = v.platform;
  body.discontinuedAt = v.discontinuedAt || null;
  await put(v.id, body);
}

async function put(id, body) {
  const where = byId('product-result');
  const answer = await attempt(where, () => call('PUT', '/v1/products/' + enc(id), body));
  if (!answer) return;
  say(where, 'Saved ' + answer.id + (answer.discontinuedAt ? ', discontinued from ' + when(answer.discontinuedAt) : ', on offer') + '.', 'ok');
  await loadProducts();
}

async function createKey(event) {
  event.preventDefault();
  const v = fields(event.target);
  const body = { role: v.role };
  if (v.role === 'editor') body.publications = list(v.publications);
  const where = byId('key-result');
  const answer = await attempt(where, () => call('POST', '/v1/keys', body));
  if (!answer) return;
  show(where,
    el('p', { class: 'message message-ok' }, 'Key ', el('code', {}, answer.keyId), ' (' + answer.role
      + (answer.publications && answer.publications.length ? ' of ' + answer.publications.join(', ') : '')
      + '). It is shown this once: copy it now.'),
    el('input', { class: 'secret', readOnly: true, value: answer.key, spellcheck: 'false' }));
}

async function revokeKey(event) {
  event.preventDefault();
  const v = fields(event.target);
  const where = byId('revoke-result');
  const answer = await attempt(where, () => call('DELETE', '/v1/keys/' + enc(v.keyId)));
  if (answer !== null) say(where, 'Revoked ' + v.keyId + ': it stopped working at once.', 'ok');
}
