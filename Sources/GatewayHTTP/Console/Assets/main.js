// Sign-in, what the key may do, and the tabs. Each page's behaviour is in its own module.
import { signIn, signOut, get, enc, APIError } from './api.js';
import { byId, show, say, el } from './dom.js';
import * as editors from './editors.js';
import * as products from './products.js';
import * as support from './support.js';
import * as webhooks from './webhooks.js';

const pages = ['editors', 'products', 'support'];

/// What the key may do, found by asking the API (it has no "who am I" route): the publications
/// whose full issue list it may read (editors of them, admin), and whether it may look accounts
/// up (service and admin keys; a lookup of an id nobody holds is a 404 for them, a 403 for
/// others). Admin is the key that may do both; a 401 anywhere means the key is unknown.
async function abilities() {
  const publications = (await get('/v1/publications')).publications;
  let lookup = true;
  try {
    await get('/v1/lookup?accountId=' + enc('console-sign-in-probe'));
  } catch (e) {
    if (e.status === 403) lookup = false;
    else if (e.status !== 404) throw e;
  }
  const editable = [];
  for (const publication of publications) {
    try {
      await get('/v1/publications/' + enc(publication.id) + '/issues?include=all&limit=1');
      editable.push(publication);
    } catch (e) {
      if (e.status !== 403) throw e;
    }
  }
  const admin = lookup && (editable.length > 0 || publications.length === 0);
  return { publications, editable, lookup, admin };
}

function open(page) {
  for (const name of pages) {
    byId(name).hidden = name !== page;
    const tab = document.querySelector('.tab[data-tab="' + name + '"]');
    if (tab) tab.classList.toggle('active', name === page);
  }
}

async function submitKey(event) {
  event.preventDefault();
  const input = byId('key');
  const key = input.value.trim();
  input.value = '';
  if (key.length === 0) return;
  signIn(key);
  const result = byId('sign-in-result');
  show(result);
  let can;
  try {
    can = await abilities();
  } catch (e) {
    signOut();
    say(result, e instanceof APIError && e.status === 401 ? 'The gateway does not know this key.' : e.message);
    return;
  }
  if (can.editable.length === 0 && !can.lookup) {
    signOut();
    say(result, 'This key may neither edit a publication nor look up accounts: use an editor, service or admin key.');
    return;
  }
  const role = can.admin ? 'admin' : can.lookup ? 'service key' : 'editor of ' + can.editable.map((p) => p.id).join(', ');
  show(byId('who'), 'Signed in: ', el('strong', {}, role));
  byId('sign-in').hidden = true;
  byId('sign-out').hidden = false;
  byId('tabs').hidden = false;
  const visible = { editors: can.editable.length > 0, products: can.admin, support: can.lookup };
  for (const name of pages) {
    document.querySelector('.tab[data-tab="' + name + '"]').hidden = !visible[name];
  }
  if (visible.editors) editors.start(can);
  if (visible.products) { products.start(); webhooks.start(); }
  if (visible.support) support.start(can);
  open(visible.editors ? 'editors' : 'support');
}

function leave() {
  // Forgetting the key is enough; reloading also drops every answer the page holds.
  signOut();
  location.reload();
}

document.addEventListener('DOMContentLoaded', () => {
  byId('sign-in-form').addEventListener('submit', submitKey);
  byId('sign-out').addEventListener('click', leave);
  for (const tab of document.querySelectorAll('.tab')) {
    tab.addEventListener('click', () => open(tab.dataset.tab));
  }
  byId('key').focus();
});
