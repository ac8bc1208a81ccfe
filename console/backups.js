// DynamoDB's on-demand backups of the header's database, through
// DynamoDB's own operations: back a table up (CreateBackup), list them all
// (ListBackups, every page), restore one as a new table
// (RestoreTableFromBackup) and delete one (DeleteBackup, after asking).

import {ddb, listTableNames} from './api.js';
import {field, formatBytes, formatTime, h, select} from './util.js';

async function allBackups() {
  const backups = [];
  let start;
  do {
    const page = await ddb('ListBackups', start ? {ExclusiveStartBackupArn: start} : {});
    backups.push(...page.BackupSummaries);
    start = page.LastEvaluatedBackupArn;
  } while (start);
  return backups;
}

export async function backupsView(root) {
  const output = h('output', {class: 'status', role: 'status'});
  const report = (text, isError = false) => {
    output.textContent = text;
    output.className = isError ? 'status error' : 'status';
  };
  const body = h('tbody', {}, h('tr', {}, h('td', {colspan: 6}, 'Loading…')));

  const act = async (what, operation, request) => {
    try {
      report(what(await ddb(operation, request)));
    } catch (error) {
      report(`${error.type ?? 'Error'}: ${error.message}`, true);
    }
    refresh();
  };
  const row = (backup) => {
    const target = h('input', {name: 'restore-as', size: 18, 'aria-label': `Restore ${backup.BackupName} as`,
                               value: `${backup.TableName}-restored`});
    return h('tr', {},
      h('td', {}, backup.BackupName), h('td', {}, backup.TableName),
      h('td', {class: 'num'}, formatBytes(backup.BackupSizeBytes)),
      h('td', {}, formatTime(backup.BackupCreationDateTime * 1000)),
      h('td', {}, backup.BackupStatus),
      h('td', {},
        target, ' ',
        h('button', {onclick: () => act(
          (a) => `Restoring ${backup.BackupName} as ${a.TableDescription.TableName}`,
          'RestoreTableFromBackup', {TargetTableName: target.value.trim(), BackupArn: backup.BackupArn})},
          'Restore'), ' ',
        h('button', {onclick: () => {
          if (!window.confirm(`Delete backup ${backup.BackupName}?`)) return;
          act(() => `Deleted ${backup.BackupName}`, 'DeleteBackup', {BackupArn: backup.BackupArn});
        }}, 'Delete')));
  };
  async function refresh() {
    try {
      const backups = await allBackups();
      body.replaceChildren(...(backups.length ? backups.map(row)
          : [h('tr', {}, h('td', {colspan: 6}, 'No backups.'))]));
    } catch (error) {
      body.replaceChildren(h('tr', {}, h('td', {colspan: 6, class: 'error'}, error.message)));
    }
  }

  const tables = await listTableNames();
  const table = select(tables.map((name) => [name]), tables[0], {name: 'backup-table'});
  const name = h('input', {name: 'backup-name', placeholder: 'before-migration', size: 20,
                           required: true, pattern: '[a-zA-Z0-9_.\\-]{3,255}'});
  const create = (event) => {
    event.preventDefault();
    act((a) => `Backed up ${table.value} as ${a.BackupDetails.BackupName}`, 'CreateBackup',
        {TableName: table.value, BackupName: name.value.trim()});
  };
  refresh();
  root.replaceChildren(
    h('h1', {}, 'Backups'),
    h('p', {}, 'DynamoDB\'s on-demand backups of this database: kept until deleted, also after ',
      'their table is deleted and, with --data-dir, across restarts. A restore makes a new table ',
      'without the settings DynamoDB leaves to set again (tags, TTL, stream, recovery, policy).'),
    h('section', {}, h('h2', {}, 'Back up'),
      h('form', {class: 'snapshot-form', onsubmit: create},
        field('Table', table), field('Backup name', name),
        h('button', {type: 'submit'}, 'Create backup'))),
    output,
    h('section', {}, h('h2', {}, 'Kept'),
      h('table', {class: 'grid backups'},
        h('thead', {}, h('tr', {}, ['Name', 'Table', 'Size', 'Created', 'Status', '']
            .map((c) => h('th', {}, c)))), body)));
}
