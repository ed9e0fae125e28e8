// Admin: readers no store knows (E29, E30): institutions by network, and the print subscriber
// lists received, with what each did.
import { get } from './api.js';
import { byId, show, table, when, badge, attempt } from './dom.js';

export function start() {
  loadInstitutions();
  loadImports();
}

async function loadInstitutions() {
  const answer = await attempt(byId('institutions-result'), () => get('/v1/institutions'));
  if (!answer) return;
  const rows = answer.institutions.map((i) => ({
    attributes: { 'data-institution': i.institutionId },
    cells: [
      i.name,
      { cell: i.institutionId, class: 'mono' },
      i.publications.join(', '),
      { cell: i.networks.join(' '), class: 'mono' },
      { cell: when(i.start) + ' – ' + (i.end ? when(i.end) : 'open'), class: 'nowrap' },
    ],
  }));
  show(byId('institution-list'), table(['Name', 'Id', 'Publications', 'Networks', 'Interval'], rows));
}

async function loadImports() {
  const answer = await attempt(byId('imports-result'), () => get('/v1/subscriber-imports'));
  if (!answer) return;
  const rows = answer.imports.map((i) => ({
    attributes: { 'data-list': i.listId },
    cells: [
      { cell: when(i.receivedAt), class: 'nowrap' },
      i.publicationId,
      i.kind === 'whole' ? 'whole list' : 'changes',
      String(i.added), String(i.changed), String(i.ended), String(i.unchanged), String(i.rejected),
      i.refusal ? badge('refused', 'retracted') : i.finishedAt ? badge('done', 'published') : badge('unfinished', 'retracted'),
    ],
  }));
  show(byId('import-list'), table(['Received', 'Publication', 'Kind', 'Added', 'Changed', 'Ended', 'Unchanged', 'Rejected', ''], rows));
}
