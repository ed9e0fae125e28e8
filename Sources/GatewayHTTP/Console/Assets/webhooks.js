// Admin: webhook events that kept failing for the configured time and were set aside (the
// dead-letter list), and their replay: a replayed event goes before its account's later events.
import { call, get } from './api.js';
import { el, byId, show, say, table, when, attempt } from './dom.js';

export function start() {
  byId('dead-letters-reload').addEventListener('click', loadDeadLetters);
  loadDeadLetters();
}

async function loadDeadLetters() {
  const where = byId('dead-letters-result');
  const answer = await attempt(where, () => get('/v1/webhooks/dead-letters'));
  if (!answer) return;
  if (answer.events.length === 0) {
    show(byId('dead-letters'), el('p', { class: 'hint' }, 'No webhook event is set aside.'));
    return;
  }
  const rows = answer.events.map((e) => ({
    attributes: { 'data-dead-letter': String(e.seq) },
    cells: [
      { cell: e.id, class: 'mono' },
      e.accountId || '—',
      { cell: when(e.createdAt), class: 'nowrap' },
      String(e.attempts),
      e.lastFailure || '',
      { cell: replayButton(e), class: 'actions' },
    ],
  }));
  show(byId('dead-letters'), table(['Event', 'Account', 'Created', 'Attempts', 'Last failure', ''], rows));
}

function replayButton(event) {
  return el('button', { type: 'button', class: 'quiet', onclick: () => replay(event) }, 'Replay');
}

async function replay(event) {
  const where = byId('dead-letters-result');
  const done = await attempt(where, () => call('POST', '/v1/webhooks/dead-letters/' + event.seq + '/replay', {}));
  if (!done) return;
  await loadDeadLetters();
  say(where, event.id + ' waits again, before its account\'s later events.', 'ok');
}
