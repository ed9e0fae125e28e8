// Editors: a publication's issues with their states; publish, schedule, correct, retract and
// republish; access codes; publications (admin).
import { call, get, enc } from './api.js';
import { el, byId, show, say, table, when, badge, attempt, fields, nowInstant, confirmingButton, rowFilter } from './dom.js';
import * as reports from './reports.js';

let publications = [];
let current = null;
/// The issue being corrected (its id), or null when the form creates one.
let editing = null;
const pageSize = 100;

export function start(can) {
  publications = can.editable;
  const select = byId('publication');
  show(select, publications.map((p) => el('option', { value: p.id }, p.id)));
  select.addEventListener('change', () => choose(select.value));
  byId('issue-form').addEventListener('submit', saveIssue);
  byId('issue-now').addEventListener('click', () => { byId('issue-form').elements.publishedAt.value = nowInstant(); });
  byId('issue-cancel').addEventListener('click', stopEditing);
  byId('codes-form').addEventListener('submit', createCodes);
  byId('batch-form').addEventListener('submit', showBatch);
  if (can.admin) {
    byId('publication-card').hidden = false;
    byId('publication-form').addEventListener('submit', savePublication);
  }
  reports.start();
  stopEditing();
  if (publications.length > 0) choose(publications[0].id);
}

function choose(id) {
  current = id;
  const publication = publications.find((p) => p.id === id);
  show(byId('publication-title'), publication ? publication.title : '');
  stopEditing();
  reports.choose(id);
  loadIssues();
}

const issuesPath = (after) => '/v1/publications/' + enc(current) + '/issues?include=all&limit=' + pageSize
  + (after ? '&after=' + enc(after) : '');

export async function loadIssues() {
  const where = byId('issues-result');
  const page = await attempt(where, () => get(issuesPath()));
  const list = byId('issues');
  show(list);
  if (!page) return;
  list.appendChild(el('div', { class: 'list-head' }, rowFilter(list, 'Find an issue by id, title or state')));
  showIssues(page, list);
}

function showIssues(page, into) {
  const rows = page.issues.map((issue) => ({
    attributes: { 'data-issue': issue.id },
    cells: [
      { cell: issue.id, class: 'mono' },
      issue.title,
      when(issue.publishedAt),
      badge(issue.state),
      issue.free ? 'free' : '',
      { cell: actions(issue), class: 'actions' },
    ],
  }));
  into.appendChild(table(['Id', 'Title', 'Published at', 'State', '', ''], rows, { class: 'issues' }));
  if (page.next) {
    const more = el('button', { type: 'button', class: 'quiet more' }, 'Show older issues');
    more.addEventListener('click', async () => {
      more.remove();
      const next = await attempt(byId('issues-result'), () => get(issuesPath(page.next)));
      if (next) showIssues(next, into);
    });
    into.appendChild(more);
  }
}

function actions(issue) {
  const correct = el('button', { type: 'button', class: 'quiet', onclick: () => startEditing(issue) }, 'Correct');
  const circulation = el('button', { type: 'button', class: 'quiet circulation',
    onclick: () => reports.showCirculation(issue.id) }, 'Circulation');
  if (issue.state === 'retracted') {
    const republish = el('button', { type: 'button', class: 'quiet' }, 'Republish');
    republish.addEventListener('click', () => send('PUT', issue.id, bodyOf(issue), 'Republished ' + issue.id + '.'));
    return [correct, circulation, republish];
  }
  const retract = confirmingButton('Retract', 'Retract: sure?', () =>
    send('DELETE', issue.id, undefined, 'Retracted ' + issue.id + '.'));
  return issue.state === 'scheduled' ? [correct, retract] : [correct, circulation, retract];
}

/// The issue body of http-api.md from an issue answer.
function bodyOf(issue) {
  return { id: issue.id, title: issue.title, publishedAt: issue.publishedAt, free: issue.free, assets: issue.assets };
}

function startEditing(issue) {
  editing = issue.id;
  const form = byId('issue-form');
  form.elements.id.value = issue.id;
  form.elements.id.readOnly = true;
  form.elements.title.value = issue.title;
  form.elements.publishedAt.value = issue.publishedAt;
  form.elements.free.checked = issue.free;
  form.elements.assets.value = issue.assets.map((a) =>
    [a.path, a.bytes ?? '', a.sha256 ?? ''].join(' ').trim()).join('\n');
  show(byId('issue-form-title'), 'Correct issue ', el('code', {}, issue.id));
  byId('issue-save').textContent = 'Save correction';
  byId('issue-cancel').hidden = false;
  show(byId('issue-result'));
  form.scrollIntoView({ block: 'nearest' });
}

function stopEditing() {
  editing = null;
  const form = byId('issue-form');
  form.reset();
  form.elements.id.readOnly = false;
  show(byId('issue-form-title'), 'Publish or schedule an issue');
  byId('issue-save').textContent = 'Publish';
  byId('issue-cancel').hidden = true;
}

/// `path [bytes] [sha256]` per line.
function parseAssets(text) {
  return text.split('\n').map((line) => line.trim()).filter((line) => line.length > 0).map((line) => {
    const [path, bytes, sha256] = line.split(/\s+/);
    const asset = { path };
    if (bytes) asset.bytes = /^\d+$/.test(bytes) ? Number(bytes) : bytes;
    if (sha256) asset.sha256 = sha256;
    return asset;
  });
}

async function saveIssue(event) {
  event.preventDefault();
  const v = fields(event.target);
  const body = { id: v.id, title: v.title, publishedAt: v.publishedAt, free: v.free, assets: parseAssets(v.assets) };
  if (editing) await send('PUT', editing, body, 'Corrected ' + v.id + '.');
  else await send('POST', null, body, 'Saved ' + v.id + '.');
}

/// One change to an issue; the answer's state says whether it is published or scheduled.
async function send(method, issueId, body, done) {
  const where = byId('issue-result');
  const path = '/v1/publications/' + enc(current) + '/issues' + (issueId ? '/' + enc(issueId) : '');
  const answer = await attempt(where, () => call(method, path, body));
  if (!answer) return;
  say(where, method === 'DELETE' ? done : done + ' It is ' + answer.state + '.', 'ok');
  if (method !== 'DELETE') stopEditing();
  await loadIssues();
}

async function createCodes(event) {
  event.preventDefault();
  const v = fields(event.target);
  const body = { count: Number(v.count) };
  if (v.issueId) body.issueId = v.issueId;
  if (v.duration) body.duration = v.duration;
  if (v.expiresAt) body.expiresAt = v.expiresAt;
  const where = byId('codes-result');
  const answer = await attempt(where, () => call('POST', '/v1/publications/' + enc(current) + '/codes', body));
  if (!answer) return;
  byId('batch-form').elements.batchId.value = answer.batchId;
  show(where,
    el('p', { class: 'message message-ok' }, answer.codes.length + ' codes, shown this once: copy them now. Batch ',
      el('code', { class: 'batch' }, answer.batchId), '.'),
    el('textarea', { class: 'codes', rows: Math.min(answer.codes.length, 8), readOnly: true, spellcheck: 'false' },
      answer.codes.join('\n')));
}

async function showBatch(event) {
  event.preventDefault();
  const v = fields(event.target);
  const where = byId('batch-result');
  const path = '/v1/publications/' + enc(current) + '/codes/' + enc(v.batchId);
  const batch = await attempt(where, () => get(path));
  if (!batch) return;
  const terms = Object.entries(batch).filter(([, value]) => typeof value !== 'object' || value === null)
    .map(([name, value]) => el('div', {}, el('dt', {}, name), el('dd', {}, value === null ? '—' : String(value))));
  const withdraw = confirmingButton('Withdraw unused codes', 'Withdraw: sure?', async () => {
    const answer = await attempt(where, () => call('DELETE', path));
    if (answer) say(where, 'Withdrawn: unused codes of ' + v.batchId + ' no longer redeem.', 'ok');
  });
  show(where, el('dl', { class: 'facts' }, terms), withdraw);
}

async function savePublication(event) {
  event.preventDefault();
  const v = fields(event.target);
  const where = byId('publication-result');
  const answer = await attempt(where, () => call('PUT', '/v1/publications/' + enc(v.id), { title: v.title }));
  if (!answer) return;
  say(where, 'Saved ' + answer.id + '. Sign in again to edit it here.', 'ok');
}
