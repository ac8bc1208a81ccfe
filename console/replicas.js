// A table's global-table replicas: each region's status and replication
// backlog (how many of its writes the others have not applied yet, and
// since when), the table's replication delay, and the buttons a test
// would press — add or delete a replica (UpdateTable's ReplicaUpdates, as
// any client would) and settle (apply everything pending now).

import {admin, credentials, currentNamespace, ddb} from './api.js';
import {field, formatDuration, h} from './util.js';

export async function replicasView(root, table) {
  const output = h('output', {class: 'status', role: 'status'});
  const say = (text, isError = false) => {
    output.textContent = text;
    output.className = isError ? 'status error' : 'status';
  };
  const rows = h('tbody');
  const delay = h('input', {type: 'number', min: 0, max: 3600000, size: 8});
  const region = h('input', {size: 14, placeholder: 'eu-west-1', 'aria-label': 'Region'});

  // Runs `action`, reports its outcome, and redraws the table's view.
  const act = (action, done) => async () => {
    try {
      await action();
      say(done());
    } catch (error) {
      say(`${error.type ?? 'Error'}: ${error.message}`, true);
    }
    await refresh();
  };

  async function refresh() {
    const [{Table}, {Members, DelayMillis}, {NowMillis}, ns] = await Promise.all([
      ddb('DescribeTable', {TableName: table.TableName}), admin('replication'), admin('clock'),
      currentNamespace()]);
    const backlog = (regionName) =>
      Members.find((m) => m.TableName === table.TableName && m.Region === regionName);
    const own = Members.find((m) => m.TableName === table.TableName && m.Namespace === ns);
    delay.value = own?.DelayMillis ?? DelayMillis;
    const members = [{RegionName: credentials.region, ReplicaStatus: Table.TableStatus, self: true},
                     ...(Table.Replicas ?? [])];
    rows.replaceChildren(...(Table.Replicas ? members.map((replica) => {
      const pending = backlog(replica.RegionName);
      const lag = pending?.OldestPendingMillis
          ? `${formatDuration(Math.max(0, NowMillis - pending.OldestPendingMillis) / 1000)} behind`
          : 'in step';
      return h('tr', {},
        h('td', {}, replica.RegionName, replica.self ? ' (this region)' : ''),
        h('td', {}, replica.ReplicaStatus),
        h('td', {class: 'num'}, String(pending?.Pending ?? 0)),
        h('td', {}, lag),
        h('td', {}, replica.self ? '' : h('button', {
          onclick: act(() => ddb('UpdateTable', {TableName: table.TableName,
                                                  ReplicaUpdates: [{Delete: {RegionName: replica.RegionName}}]}),
                       () => `Deleting the replica in ${replica.RegionName}`)}, 'Delete replica')));
    }) : [h('tr', {}, h('td', {colspan: 5}, 'A regional table: no replicas.'))]));
    const consistency = Table.MultiRegionConsistency ?? 'EVENTUAL';
    summary.textContent = Table.Replicas
        ? `Global table (version ${Table.GlobalTableVersion}, ${consistency} consistency)`
        : '';
  }

  const summary = h('p', {class: 'summary'});
  root.append(
    h('p', {}, 'Writes in each region reach the others after the replication delay, by the ',
      'emulator\'s clock; pending writes are what a region has not yet given the others.'),
    summary,
    h('table', {class: 'grid replicas'},
      h('thead', {}, h('tr', {}, h('th', {}, 'Region'), h('th', {}, 'Status'),
                      h('th', {}, 'Pending writes'), h('th', {}, 'Lag'), h('th', {}, ''))),
      rows),
    h('form', {class: 'row', onsubmit: (event) => {
      event.preventDefault();
      act(() => ddb('UpdateTable', {TableName: table.TableName,
                                    ReplicaUpdates: [{Create: {RegionName: region.value.trim()}}]}),
          () => `Adding a replica in ${region.value.trim()}`)();
    }}, field('Region', region), h('button', {type: 'submit'}, 'Add replica')),
    h('form', {class: 'row', onsubmit: (event) => {
      event.preventDefault();
      act(async () => admin('replication', {TableName: table.TableName, Region: credentials.region,
                                            AccessKey: credentials.accessKey,
                                            DelayMillis: Number(delay.value)}),
          () => `Replication delay set to ${delay.value} ms`)();
    }}, field('Delay (ms)', delay), h('button', {type: 'submit'}, 'Set delay'),
      h('button', {type: 'button', onclick: act(() => admin('replication/settle', {}),
                                                 () => 'Settled: every pending write applied')},
        'Settle now')),
    output);
  await refresh();
}
