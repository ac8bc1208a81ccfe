// The console's entry point: the header (navigation, database, clock) and
// hash routing between the views:
//   #/                      tables
//   #/table/<name>          its items        #/table/<name>/stream   its stream
//   #/table/<name>/details  DescribeTable    #/triggers              every trigger
//   #/table/<name>/insights Contributor Insights: settings and the keys counted
//   #/table/<name>/replicas a global table's replicas, their backlog, settle
//   #/faults                injected faults and the throttle
//   #/snapshots             named snapshots: save, restore, forget
//   #/backups               DynamoDB's on-demand backups: create, restore, delete
//   #/exports               DynamoDB's exports (start one) and imports
//   #/profile               the access profile: units, cost, filter waste, shapes

import {credentials, describeTable, setCredentials} from './api.js';
import {backupsView} from './backups.js';
import {exportsView} from './exports.js';
import {insightsView} from './insights.js';
import {clockPanel} from './clock.js';
import {faultsView} from './faults.js';
import {itemsView} from './items.js';
import {profileView} from './profile.js';
import {replicasView} from './replicas.js';
import {snapshotsView} from './snapshots.js';
import {streamView, triggersSection} from './streams.js';
import {tablesView} from './tables.js';
import {field, h, leaveView} from './util.js';

const main = document.getElementById('main');

function databaseForm() {
  const key = h('input', {value: credentials.accessKey, size: 10});
  const region = h('input', {value: credentials.region, size: 10});
  const apply = () => { setCredentials(key.value.trim(), region.value.trim()); route(); };
  key.addEventListener('change', apply);
  region.addEventListener('change', apply);
  return h('div', {class: 'database',
                   title: 'The region names the database (and the access key with --per-key-databases)'},
           field('Access key', key), field('Region', region));
}

async function tableView(name, tab) {
  const table = await describeTable(name);
  const link = (target, text) => h('a', {href: `#/table/${encodeURIComponent(name)}${target}`,
                                         'aria-current': (target.slice(1) || 'items') === tab ? 'page' : null},
                                    text);
  const content = h('div');
  main.replaceChildren(
    h('h1', {}, h('a', {href: '#/'}, 'Tables'), ' / ', name),
    h('nav', {class: 'tabs'}, link('', 'Items'), link('/stream', 'Stream and triggers'),
      link('/details', 'Details'), link('/insights', 'Insights'), link('/replicas', 'Replicas')),
    content);
  if (tab === 'stream') streamView(content, table);
  else if (tab === 'insights') await insightsView(content, table);
  else if (tab === 'replicas') await replicasView(content, table);
  else if (tab === 'details') {
    // DescribeTable's answer as is (ttlAttribute is the console's own note).
    content.append(h('pre', {class: 'details'}, JSON.stringify({...table, ttlAttribute: undefined}, null, 2)));
  }
  else await itemsView(content, table);
}

async function route() {
  leaveView();
  for (const dialog of document.querySelectorAll('dialog[open]')) dialog.close();
  const [, view, name, tab] = location.hash.replace(/^#/, '').split('/');
  try {
    if (view === 'table' && name) await tableView(decodeURIComponent(name), tab || 'items');
    else if (view === 'triggers') main.replaceChildren(h('h1', {}, 'Triggers'), triggersSection());
    else if (view === 'faults') faultsView(main);
    else if (view === 'snapshots') await snapshotsView(main);
    else if (view === 'backups') await backupsView(main);
    else if (view === 'exports') await exportsView(main);
    else if (view === 'profile') await profileView(main);
    else await tablesView(main);
  } catch (error) {
    main.replaceChildren(h('p', {class: 'error', role: 'alert'}, `${error.type ?? 'Error'}: ${error.message}`));
  }
}

const [clock, status] = clockPanel(route);
document.getElementById('header').append(
  h('nav', {class: 'top'}, h('a', {href: '#/', class: 'brand'}, 'localdynamo'),
    h('a', {href: '#/'}, 'Tables'), h('a', {href: '#/triggers'}, 'Triggers'),
    h('a', {href: '#/faults'}, 'Faults'), h('a', {href: '#/snapshots'}, 'Snapshots'),
    h('a', {href: '#/backups'}, 'Backups'), h('a', {href: '#/exports'}, 'Exports'),
    h('a', {href: '#/profile'}, 'Profile')),
  clock, databaseForm(), status);
window.addEventListener('hashchange', route);
route();
