// Reports (reports.md): an issue's circulation (E36) and a publication's subscribers over time
// as the chart the gateway draws (E37).
import { get, enc, pictureURL } from './api.js';
import { el, byId, show, attempt, fields, table, showPicture } from './dom.js';

let publication = null;

export function start() {
  byId('metrics-range').addEventListener('submit', (event) => {
    event.preventDefault();
    showChart();
  });
  const form = byId('metrics-range');
  const today = new Date();
  form.elements.to.value = today.toISOString().slice(0, 10);
  form.elements.from.value = new Date(today.getTime() - 364 * 86400000).toISOString().slice(0, 10);
}

/// The publication the editors' page shows: its chart, and no issue's circulation yet.
export function choose(publicationId) {
  publication = publicationId;
  show(byId('circulation'));
  showChart();
}

/// `GET /v1/publications/{p}/metrics.svg`, fetched with the key and shown from a `blob:` URL.
async function showChart() {
  const where = byId('metrics-chart');
  const range = fields(byId('metrics-range'));
  const path = '/v1/publications/' + enc(publication) + '/metrics.svg?from=' + enc(range.from) + '&to=' + enc(range.to)
    + '&interval=' + enc(range.interval);
  await showPicture(where, () => pictureURL(path), 'Subscribers', 'Active subscriptions by store and trials over time',
    'timeline metrics', 'Open full size');
}

/// `GET /v1/publications/{p}/issues/{i}/circulation`: who could read the issue and on what
/// terms, and who downloaded it.
export async function showCirculation(issueId) {
  const where = byId('circulation');
  const path = '/v1/publications/' + enc(publication) + '/issues/' + enc(issueId) + '/circulation';
  const c = await attempt(where, () => get(path));
  if (!c) return;
  const bases = ['total', 'paid', 'trial', 'print', 'grant'];
  const entitled = c.entitled === null ? ['free issue: not counted per account'] : bases.map((b) => c.entitled[b]);
  const stores = c.entitled === null ? [] : Object.entries(c.entitled.byStore).map(([store, n]) => store + ' ' + n);
  show(where,
    el('h3', {}, 'Circulation of ', el('code', {}, c.issueId), ' as of ', c.asOf),
    table(['', ...bases, 'not entitled'], [
      { attributes: { 'data-row': 'entitled' }, cells: ['entitled', ...entitled] },
      { attributes: { 'data-row': 'downloaded' }, cells: ['downloaded', ...bases.map((b) => c.downloaded[b]), c.downloaded.notEntitled] },
    ], { class: 'circulation' }),
    el('p', { class: 'hint' }, stores.length ? 'Paid and trial by store: ' + stores.join(', ') + '. ' : '',
      'Institutions: ' + c.institutions.entitled + ' entitled, ' + c.institutions.downloaded + ' downloaded.'));
  where.scrollIntoView({ block: 'nearest' });
}
