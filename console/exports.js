// DynamoDB's exports and imports of the header's database, through
// DynamoDB's own operations: export a table (ExportTableToPointInTime,
// turning point-in-time recovery on first when asked, as the export needs
// it), and list every export (ListExports, every page, then DescribeExport
// for each) and every import (ListImports).

import {ddb, listTableNames} from './api.js';
import {field, formatTime, h, select} from './util.js';

async function allPages(operation, listMember, tokenMember = 'NextToken') {
  const entries = [];
  let token;
  do {
    const page = await ddb(operation, token ? {[tokenMember]: token} : {});
    entries.push(...page[listMember]);
    token = page[tokenMember];
  } while (token);
  return entries;
}

export async function exportsView(root) {
  const output = h('output', {class: 'status', role: 'status'});
  const report = (text, isError = false) => {
    output.textContent = text;
    output.className = isError ? 'status error' : 'status';
  };
  const exportsBody = h('tbody', {}, h('tr', {}, h('td', {colspan: 6}, 'Loading…')));
  const importsBody = h('tbody', {}, h('tr', {}, h('td', {colspan: 5}, 'Loading…')));

  const exportRow = (e) => h('tr', {},
    h('td', {}, e.TableArn.split('/').pop()), h('td', {}, e.ExportStatus),
    h('td', {}, `${e.ExportType ?? 'FULL_EXPORT'} · ${e.ExportFormat}`),
    h('td', {class: 'num'}, e.ItemCount ?? ''),
    h('td', {}, formatTime(e.StartTime * 1000)),
    h('td', {}, e.ExportManifest ? `s3://${e.S3Bucket}/${e.ExportManifest}`
                                 : (e.FailureMessage ?? '')));
  const importRow = (i) => h('tr', {},
    h('td', {}, i.TableArn.split('/').pop()), h('td', {}, i.ImportStatus),
    h('td', {}, i.InputFormat),
    h('td', {}, `s3://${i.S3BucketSource.S3Bucket}/${i.S3BucketSource.S3KeyPrefix ?? ''}`),
    h('td', {}, formatTime(i.StartTime * 1000)));

  async function refresh() {
    try {
      const summaries = await allPages('ListExports', 'ExportSummaries');
      const described = await Promise.all(summaries.map(async (s) =>
        (await ddb('DescribeExport', {ExportArn: s.ExportArn})).ExportDescription));
      exportsBody.replaceChildren(...(described.length ? described.map(exportRow)
          : [h('tr', {}, h('td', {colspan: 6}, 'No exports.'))]));
      const imports = await allPages('ListImports', 'ImportSummaryList');
      importsBody.replaceChildren(...(imports.length ? imports.map(importRow)
          : [h('tr', {}, h('td', {colspan: 5}, 'No imports.'))]));
    } catch (error) {
      exportsBody.replaceChildren(h('tr', {}, h('td', {colspan: 6, class: 'error'}, error.message)));
    }
  }

  const tables = await listTableNames();
  const table = select(tables.map((name) => [name]), tables[0], {name: 'export-table'});
  const bucket = h('input', {name: 'export-bucket', value: 'exports', size: 16, required: true});
  const prefix = h('input', {name: 'export-prefix', placeholder: 'nightly', size: 16});
  const format = select([['DYNAMODB_JSON'], ['ION']], 'DYNAMODB_JSON', {name: 'export-format'});
  const recovery = h('input', {type: 'checkbox', name: 'export-recovery', checked: true});
  const start = async (event) => {
    event.preventDefault();
    try {
      const {Table} = await ddb('DescribeTable', {TableName: table.value});
      if (recovery.checked) {
        await ddb('UpdateContinuousBackups', {TableName: table.value,
          PointInTimeRecoverySpecification: {PointInTimeRecoveryEnabled: true}});
      }
      const request = {TableArn: Table.TableArn, S3Bucket: bucket.value.trim(),
                       ExportFormat: format.value};
      if (prefix.value.trim()) request.S3Prefix = prefix.value.trim();
      const {ExportDescription} = await ddb('ExportTableToPointInTime', request);
      report(`Exporting ${table.value}: ${ExportDescription.ExportArn.split('/').pop()}`);
    } catch (error) {
      report(`${error.type ?? 'Error'}: ${error.message}`, true);
    }
    refresh();
  };
  refresh();
  root.replaceChildren(
    h('h1', {}, 'Exports and imports'),
    h('p', {}, 'DynamoDB\'s exports to S3 and imports from it. Buckets are folders under ',
      'the data directory\'s s3 folder (--s3-dir), or a real S3 endpoint (--s3-endpoint); ',
      'with --in-memory they are kept in memory. A bucket must exist before an export ',
      'writes to it, as in S3: make one with ', h('code', {}, 'mkdir -p <data-dir>/s3/<bucket>'),
      ' (or create it on the endpoint).'),
    h('section', {}, h('h2', {}, 'Export'),
      h('form', {class: 'snapshot-form', onsubmit: start},
        field('Table', table), field('S3 bucket', bucket), field('S3 prefix', prefix),
        field('Format', format), field('Turn on point-in-time recovery', recovery),
        h('button', {type: 'submit'}, 'Export'))),
    output,
    h('section', {}, h('h2', {}, 'Exports'),
      h('table', {class: 'grid exports'},
        h('thead', {}, h('tr', {}, ['Table', 'Status', 'Kind', 'Items', 'Started', 'Manifest']
            .map((c) => h('th', {}, c)))), exportsBody)),
    h('section', {}, h('h2', {}, 'Imports'),
      h('table', {class: 'grid imports'},
        h('thead', {}, h('tr', {}, ['Table', 'Status', 'Format', 'Source', 'Started']
            .map((c) => h('th', {}, c)))), importsBody)));
}
