// The stream of a table, live: the latest records (INSERT / MODIFY /
// REMOVE, images, the Service identity of TTL deletes) read through the
// Streams API as any consumer would, and the local triggers with their
// position, lag and last error from the admin API.

import {admin, ddb, streams} from './api.js';
import {status} from './clock.js';
import {cellText, formatTime, h, onLeave, plainJson} from './util.js';

const kKeptRecords = 100;
const kPollMillis = 1000;

// Sequence numbers are decimal strings of any length.
function bySequence(a, b) {
  const x = a.dynamodb.SequenceNumber;
  const y = b.dynamodb.SequenceNumber;
  return x.length - y.length || (x < y ? -1 : x > y ? 1 : 0);
}

function imageBlock(label, image) {
  if (!image) return '';
  return h('details', {}, h('summary', {}, label), h('pre', {}, plainJson({M: image})));
}

function recordRow(record) {
  const d = record.dynamodb;
  const identity = record.userIdentity
      ? `${record.userIdentity.Type} ${record.userIdentity.PrincipalId}` : '';
  return h('tr', {class: `record ${record.eventName.toLowerCase()}`},
    h('td', {}, formatTime(d.ApproximateCreationDateTime * 1000)),
    h('td', {class: 'event'}, record.eventName),
    h('td', {}, Object.entries(d.Keys).map(([k, v]) => `${k}=${cellText(v)}`).join(', ')),
    h('td', {}, imageBlock('new image', d.NewImage), imageBlock('old image', d.OldImage)),
    h('td', {class: 'identity'}, identity ? `TTL delete (${identity})` : ''),
    h('td', {class: 'seq'}, d.SequenceNumber));
}

// Follows every shard of the stream from its trim horizon, keeping the
// newest records; re-describes the stream each round to find new shards.
class StreamFollower {
  constructor(arn) {
    this.arn = arn;
    this.iterators = new Map();  // shard id -> next iterator (null: shard done)
    this.records = [];
  }

  async discoverShards() {
    let start;
    do {
      const {StreamDescription: d} = await streams('DescribeStream',
          {StreamArn: this.arn, ...(start ? {ExclusiveStartShardId: start} : {})});
      for (const shard of d.Shards) {
        if (this.iterators.has(shard.ShardId)) continue;
        const {ShardIterator} = await streams('GetShardIterator',
            {StreamArn: this.arn, ShardId: shard.ShardId, ShardIteratorType: 'TRIM_HORIZON'});
        this.iterators.set(shard.ShardId, ShardIterator);
      }
      start = d.LastEvaluatedShardId;
    } while (start);
  }

  // Reads what is new; true when records arrived.
  async poll() {
    await this.discoverShards();
    let arrived = false;
    for (const [shard, iterator] of this.iterators) {
      if (!iterator) continue;
      const page = await streams('GetRecords', {ShardIterator: iterator, Limit: 1000});
      this.iterators.set(shard, page.NextShardIterator ?? null);
      if (page.Records.length) {
        arrived = true;
        this.records.push(...page.Records);
      }
    }
    if (arrived) this.records = this.records.sort(bySequence).slice(-kKeptRecords);
    return arrived;
  }
}

function streamSection(table) {
  const arn = table.LatestStreamArn;
  if (!table.StreamSpecification?.StreamEnabled || !arn) {
    const enable = async () => {
      try {
        await ddb('UpdateTable', {TableName: table.TableName,
          StreamSpecification: {StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES'}});
        status('Stream enabled: reload the view');
        location.reload();
      } catch (error) {
        status(`UpdateTable: ${error.message}`, true);
      }
    };
    return h('section', {}, h('h2', {}, 'Stream'), h('p', {}, 'The stream of this table is off. '),
             h('button', {onclick: enable}, 'Enable stream (new and old images)'));
  }
  const body = h('tbody');
  const note = h('p', {class: 'hint'}, `${table.StreamSpecification.StreamViewType}, ${arn}`);
  const follower = new StreamFollower(arn);
  let stopped = false;
  const round = async () => {
    if (stopped) return;
    try {
      if (await follower.poll() || !body.children.length) {
        body.replaceChildren(...(follower.records.length
            ? [...follower.records].reverse().map(recordRow)
            : [h('tr', {}, h('td', {colspan: 6}, 'No records yet.'))]));
      }
    } catch (error) {
      note.textContent = `Streams API: ${error.message}`;
    }
    if (!stopped) timer = setTimeout(round, kPollMillis);
  };
  let timer = setTimeout(round, 0);
  onLeave(() => { stopped = true; clearTimeout(timer); });
  return h('section', {}, h('h2', {}, `Stream: latest ${kKeptRecords} records, newest first`), note,
    h('table', {class: 'grid stream'},
      h('thead', {}, h('tr', {}, ['Time', 'Event', 'Keys', 'Images', 'Identity', 'Sequence number']
          .map((c) => h('th', {}, c)))), body));
}

function triggerRow(trigger) {
  const d = trigger.Definition;
  return h('tr', {},
    h('td', {}, d.Name), h('td', {}, d.TableName), h('td', {}, d.Url ?? d.Command ?? ''),
    h('td', {}, trigger.State), h('td', {class: 'num'}, trigger.Position), h('td', {class: 'num'}, trigger.Lag),
    h('td', {class: 'num'}, `${trigger.DeliveredBatches} / ${trigger.DeliveredRecords}`),
    h('td', {class: 'num'}, trigger.FailedAttempts), h('td', {class: 'num'}, trigger.GivenUpBatches),
    h('td', {class: 'error'}, trigger.LastError ?? ''));
}

// The triggers (of one table when `tableName` is given), refreshed live.
export function triggersSection(tableName) {
  const body = h('tbody', {}, h('tr', {}, h('td', {colspan: 10}, 'Loading…')));
  let stopped = false;
  let timer;
  const round = async () => {
    try {
      const {Triggers} = await admin('triggers');
      const shown = Triggers.filter((t) => !tableName || t.Definition.TableName === tableName);
      body.replaceChildren(...(shown.length ? shown.map(triggerRow)
          : [h('tr', {}, h('td', {colspan: 10}, 'No triggers (define them with --triggers or POST /_localdynamo/triggers).'))]));
    } catch (error) {
      body.replaceChildren(h('tr', {}, h('td', {colspan: 10, class: 'error'}, `Admin API: ${error.message}`)));
    }
    if (!stopped) timer = setTimeout(round, 2000);
  };
  round();
  onLeave(() => { stopped = true; clearTimeout(timer); });
  return h('section', {}, h('h2', {}, 'Triggers'),
    h('table', {class: 'grid triggers'},
      h('thead', {}, h('tr', {}, ['Name', 'Table', 'Delivers to', 'State', 'Position', 'Lag',
                                  'Delivered (batches / records)', 'Failed attempts', 'Given up', 'Last error']
          .map((c) => h('th', {}, c)))), body));
}

export function streamView(root, table) {
  root.replaceChildren(streamSection(table), triggersSection(table.TableName));
}
