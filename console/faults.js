// The failure paths a test can provoke: the injected-fault rules (listed,
// added, removed through /_localdynamo/faults) and the throttle's switch
// and buckets (/_localdynamo/throttle). Rules are shown for every database;
// a new one may be limited to the database the header's region (and access
// key) reaches (the Namespace field).

import {admin, currentNamespace} from './api.js';
import {field, h, onLeave, select} from './util.js';

const list = (text) => text.split(',').map((s) => s.trim()).filter(Boolean);

function ruleAction(rule) {
  if (rule.Error) {
    return `${rule.Error.Type} (${rule.Error.Status})${rule.Error.Message ? `: ${rule.Error.Message}` : ''}`;
  }
  if (rule.DelayMillis !== undefined) return `delay ${rule.DelayMillis} ms`;
  if (rule.DropAnswer) return 'run, then drop the connection';
  return 'drop the connection';
}

function ruleWhen(rule) {
  const parts = [];
  if (rule.Remaining !== undefined) parts.push(`next ${rule.Remaining}`);
  if (rule.Probability !== undefined) parts.push(`p=${rule.Probability}, seed ${rule.Seed}`);
  return parts.join(', ') || 'every request';
}

function addForm(refresh, report) {
  const operations = h('input', {name: 'operations', placeholder: 'PutItem, BatchWriteItem', size: 24});
  const tables = h('input', {name: 'tables', placeholder: 'any table', size: 16});
  const action = select([['Error'], ['DelayMillis', 'Delay'], ['DropConnection', 'Drop connection'],
                         ['DropAnswer', 'Run, then drop connection']],
                        'Error', {name: 'action'});
  const type = h('input', {name: 'type', value: 'ProvisionedThroughputExceededException', size: 34});
  const message = h('input', {name: 'message', placeholder: "DynamoDB's text", size: 20});
  const delay = h('input', {name: 'delay', type: 'number', value: '1000', min: '0', size: 6});
  const count = h('input', {name: 'count', type: 'number', value: '1', min: '0', size: 4,
                            title: '0: every matching request'});
  const perKey = h('input', {name: 'per-key', type: 'checkbox'});
  const submit = async (event) => {
    event.preventDefault();
    const rule = {};
    if (list(operations.value).length) rule.Operations = list(operations.value);
    if (list(tables.value).length) rule.Tables = list(tables.value);
    if (action.value === 'Error') {
      rule.Error = {Type: type.value.trim()};
      if (message.value.trim()) rule.Error.Message = message.value.trim();
    } else if (action.value === 'DelayMillis') {
      rule.DelayMillis = Number(delay.value);
    } else if (action.value === 'DropAnswer') {
      rule.DropAnswer = true;
    } else {
      rule.DropConnection = true;
    }
    if (Number(count.value) > 0) rule.Count = Number(count.value);
    if (perKey.checked) rule.Namespace = await currentNamespace();
    try {
      const added = await admin('faults', rule);
      report(`Fault rule ${added.Id} added`);
      refresh();
    } catch (error) {
      report(`Adding the rule failed: ${error.message}`, true);
    }
  };
  return h('form', {class: 'fault-form', onsubmit: submit},
    field('Operations', operations), field('Tables', tables), field('Action', action),
    field('Error type', type), field('Message', message), field('Delay (ms)', delay),
    field('Count', count), field('This database only', perKey),
    h('button', {type: 'submit'}, 'Add rule'));
}

export function faultsView(root) {
  const output = h('output', {class: 'status', role: 'status'});
  const report = (text, isError = false) => {
    output.textContent = text;
    output.className = isError ? 'status error' : 'status';
  };
  const body = h('tbody', {}, h('tr', {}, h('td', {colspan: 7}, 'Loading…')));
  const throttleState = h('span', {id: 'throttle-state'});
  const throttleButton = h('button', {}, '…');
  let throttleOn = false;
  let stopped = false;
  let timer;
  const remove = async (path) => {
    try {
      await admin(path, undefined, 'DELETE');
    } catch (error) {
      report(`Removing failed: ${error.message}`, true);
    }
    refresh();
  };
  const row = (rule) => h('tr', {},
    h('td', {class: 'num'}, rule.Id), h('td', {}, rule.Namespace ?? 'shared'),
    h('td', {}, (rule.Operations ?? ['any']).join(', ')), h('td', {}, (rule.Tables ?? ['any']).join(', ')),
    h('td', {}, ruleAction(rule)), h('td', {}, `${ruleWhen(rule)}; applied ${rule.Applied}`),
    h('td', {}, h('button', {onclick: () => remove(`faults/${rule.Id}`)}, 'Remove')));
  async function refresh() {
    clearTimeout(timer);
    try {
      const {Rules} = await admin('faults');
      body.replaceChildren(...(Rules.length ? Rules.map(row)
          : [h('tr', {}, h('td', {colspan: 7}, 'No fault rules.'))]));
      const throttle = await admin('throttle');
      throttleOn = throttle.Enabled;
      throttleState.textContent = throttleOn
          ? `on: ${throttle.Buckets.length} capacity bucket(s) in use` : 'off';
      throttleButton.textContent = throttleOn ? 'Turn throttling off' : 'Turn throttling on';
    } catch (error) {
      body.replaceChildren(h('tr', {}, h('td', {colspan: 7, class: 'error'}, `Admin API: ${error.message}`)));
    }
    if (!stopped) timer = setTimeout(refresh, 2000);
  }
  throttleButton.addEventListener('click', async () => {
    await admin('throttle', {Enabled: !throttleOn});
    refresh();
  });
  refresh();
  onLeave(() => { stopped = true; clearTimeout(timer); });
  root.replaceChildren(
    h('h1', {}, 'Faults and throttling'),
    h('section', {}, h('h2', {}, 'Throttling'),
      h('p', {}, 'Provisioned capacity throttles: ', throttleState, ' ', throttleButton)),
    h('section', {}, h('h2', {}, 'Fault rules'),
      h('table', {class: 'grid faults'},
        h('thead', {}, h('tr', {}, ['Id', 'Database', 'Operations', 'Tables', 'Action', 'When', '']
            .map((c) => h('th', {}, c)))), body),
      h('p', {}, h('button', {onclick: () => remove('faults')}, 'Remove all rules'))),
    h('section', {}, h('h2', {}, 'Add a rule'), addForm(refresh, report), output));
}
