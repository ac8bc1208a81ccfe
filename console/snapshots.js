// Named snapshots (/_localdynamo/snapshots): save the whole database or
// (with --per-key-databases) the database the header's access key names, list them, restore one (into the
// database it came from, or a one-database snapshot into the header's),
// forget one. Restoring replaces tables: the console asks first.

import {admin, currentNamespace} from './api.js';
import {field, h} from './util.js';

export async function snapshotsView(root) {
  const here = await currentNamespace();
  const output = h('output', {class: 'status', role: 'status'});
  const report = (text, isError = false) => {
    output.textContent = text;
    output.className = isError ? 'status error' : 'status';
  };
  const body = h('tbody', {}, h('tr', {}, h('td', {colspan: 7}, 'Loading…')));

  const act = async (what, path, request, method) => {
    try {
      const answer = await admin(path, request, method);
      report(what(answer));
    } catch (error) {
      report(`${error.message}`, true);
    }
    refresh();
  };
  const restore = (snapshot, into) => {
    const where = into ?? snapshot.Namespace ?? 'every database';
    if (!window.confirm(`Replace the tables of ${where} with snapshot ${snapshot.Name}?`)) return;
    act((a) => `Restored ${a.Name}: ${a.Tables} tables, ${a.Items} items in ${a.Millis.toFixed(2)} ms`,
        `snapshots/${encodeURIComponent(snapshot.Name)}/restore`, into ? {Namespace: into} : {});
  };
  const row = (snapshot) => h('tr', {},
    h('td', {}, snapshot.Name), h('td', {}, snapshot.Namespace ?? 'every database'),
    h('td', {class: 'num'}, snapshot.Tables), h('td', {class: 'num'}, snapshot.Items),
    h('td', {class: 'num'}, snapshot.Bytes), h('td', {}, new Date(snapshot.CreatedMillis).toISOString()),
    h('td', {},
      h('button', {onclick: () => restore(snapshot)}, 'Restore'), ' ',
      snapshot.Namespace !== undefined && snapshot.Namespace !== here
        ? h('button', {onclick: () => restore(snapshot, here)}, 'Restore into this database')
        : '', ' ',
      h('button', {onclick: () => act((a) => `Forgot ${a.Name}`,
                                      `snapshots/${encodeURIComponent(snapshot.Name)}`, undefined,
                                      'DELETE')}, 'Forget')));
  async function refresh() {
    try {
      const {Snapshots} = await admin('snapshots');
      body.replaceChildren(...(Snapshots.length ? Snapshots.map(row)
          : [h('tr', {}, h('td', {colspan: 7}, 'No snapshots.'))]));
    } catch (error) {
      body.replaceChildren(h('tr', {}, h('td', {colspan: 7, class: 'error'}, `Admin API: ${error.message}`)));
    }
  }

  const name = h('input', {name: 'snapshot-name', placeholder: 'seeded', size: 20, required: true});
  const scope = h('select', {name: 'scope'},
    h('option', {value: 'all'}, 'every database'),
    h('option', {value: 'one'}, `the header's access key and region (${here || 'us-east-1'})`));
  const save = (event) => {
    event.preventDefault();
    const request = {Name: name.value.trim()};
    if (scope.value === 'one') request.Namespace = here;
    act((a) => `Saved ${a.Name}: ${a.Tables} tables, ${a.Items} items, ${a.Bytes} bytes`,
        'snapshots', request);
  };
  refresh();
  root.replaceChildren(
    h('h1', {}, 'Snapshots'),
    h('p', {}, 'Held in the server\'s memory until it stops. Each region has its own ',
      'database (with --per-key-databases, each access key and region), and a snapshot can ',
      'hold one of them or every database.'),
    h('section', {}, h('h2', {}, 'Save'),
      h('form', {class: 'snapshot-form', onsubmit: save},
        field('Name', name), field('Of', scope), h('button', {type: 'submit'}, 'Save snapshot'))),
    output,
    h('section', {}, h('h2', {}, 'Saved'),
      h('table', {class: 'grid snapshots'},
        h('thead', {}, h('tr', {}, ['Name', 'Database', 'Tables', 'Items', 'Bytes', 'Saved', '']
            .map((c) => h('th', {}, c)))), body)));
}
