// Building the page. Text from the API (titles, notes, ids, messages) only ever becomes text
// nodes or attribute values: nothing here parses HTML, so a title such as
// `<img src=x onerror=alert(1)>` is shown as those characters.

/// `el('td', {class: 'num', onclick: f}, 'text', child, [more])`: strings become text nodes,
/// `on*` functions become listeners, null and false children are skipped.
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function' && name.startsWith('on')) {
      node.addEventListener(name.slice(2), value);
    } else if (name === 'value') {
      node.value = String(value);
    } else if (name === 'checked' || name === 'disabled' || name === 'hidden' || name === 'readOnly') {
      node[name] = Boolean(value);
    } else {
      node.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else if (child instanceof Node) node.appendChild(child);
    else node.appendChild(document.createTextNode(String(child)));
  }
}

export const byId = (id) => document.getElementById(id);

/// Replaces what `node` shows.
export function show(node, ...children) {
  node.replaceChildren();
  append(node, children);
}

/// A table; `rows` are arrays of cells (strings, nodes, or `{cell, class}` for a classed cell).
export function table(headings, rows, attributes = {}) {
  return el('table', attributes,
    el('thead', {}, el('tr', {}, headings.map((h) => el('th', {}, h)))),
    el('tbody', {}, rows.map((row) => el('tr', row.attributes || {}, row.cells.map((c) =>
      c && c.cell !== undefined ? el('td', { class: c.class }, c.cell) : el('td', {}, c))))));
}

/// `2012-02-20T00:00:00.000Z` as `2012-02-20 00:00 UTC`; a dash for none.
export function when(instant) {
  if (!instant) return '—';
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2})?(\.\d+)?Z$/.exec(instant);
  return m ? m[1] + ' ' + m[2] + ' UTC' : instant;
}

/// Now as an RFC 3339 instant in UTC without milliseconds, for forms.
export function nowInstant() {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/// A status badge: `<span class="badge badge-<kind>">text</span>`.
export function badge(text, kind) {
  return el('span', { class: 'badge badge-' + (kind || text) }, text);
}

/// The API's error message where the action was taken, or a success line.
export function say(node, message, kind = 'error') {
  show(node, el('p', { class: 'message message-' + kind, role: kind === 'error' ? 'alert' : 'status' }, message));
}

/// Runs an action, showing the API's message in `where` when it fails; returns its value or null.
export async function attempt(where, action) {
  try {
    if (where) show(where);
    return await action();
  } catch (e) {
    if (where) say(where, e.message || String(e));
    else throw e;
    return null;
  }
}

/// The values of a form's named fields, trimmed.
export function fields(form) {
  const values = {};
  for (const input of form.elements) {
    if (!input.name) continue;
    values[input.name] = input.type === 'checkbox' ? input.checked : input.value.trim();
  }
  return values;
}

/// `a, b ,c` as `['a', 'b', 'c']`.
export function list(text) {
  return text.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
}

/// A button that asks for a second click before doing something that cannot be undone.
export function confirmingButton(label, question, action) {
  const button = el('button', { type: 'button', class: 'danger' }, label);
  let armed = false;
  button.addEventListener('click', async () => {
    if (!armed) {
      armed = true;
      button.textContent = question;
      button.classList.add('armed');
      return;
    }
    button.disabled = true;
    await action();
  });
  button.addEventListener('blur', () => {
    armed = false;
    button.textContent = label;
    button.classList.remove('armed');
  });
  return button;
}

/// A search field that shows only the rows of `container`'s tables whose text holds what is typed.
export function rowFilter(container, placeholder) {
  const input = el('input', { type: 'search', class: 'filter', placeholder, 'aria-label': placeholder });
  input.addEventListener('input', () => {
    const wanted = input.value.trim().toLowerCase();
    for (const row of container.querySelectorAll('tbody tr')) {
      row.hidden = wanted.length > 0 && !row.textContent.toLowerCase().includes(wanted);
    }
  });
  return input;
}

/// Shows in `where` a picture the key fetched (`load` answers its `blob:` URL, `api.js`'s
/// `pictureURL`) with a link to it full size, revoking the URL shown there before; a failure is
/// said there, after `what`.
export async function showPicture(where, load, what, alt, className, linkText) {
  try {
    const url = await load();
    if (where.dataset.picture) URL.revokeObjectURL(where.dataset.picture);
    where.dataset.picture = url;
    show(where, el('img', { src: url, alt, class: className }),
      el('a', { href: url, target: '_blank', rel: 'noopener', class: 'hint' }, linkText));
  } catch (e) {
    say(where, what + ': ' + e.message);
  }
}
