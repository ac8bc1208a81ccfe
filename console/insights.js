// A table's Contributor Insights: turn them on or off for the table and
// each global index (UpdateContributorInsights, as any client would), and
// the most accessed and most throttled keys of each rule — counted by the
// emulator itself, which DynamoDB leaves to CloudWatch — from the admin API.

import {admin, currentNamespace, ddb} from './api.js';
import {h, plainJson} from './util.js';

// The report of the table in the database the header's region (and
// access key) reaches.
async function report(table) {
  const ns = encodeURIComponent(await currentNamespace());
  return admin(`insights/${encodeURIComponent(table)}?namespace=${ns}`);
}

export async function insightsView(root, table) {
  const output = h('output', {class: 'status', role: 'status'});
  const settings = h('tbody');
  const rules = h('div');
  const resources = [null, ...(table.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName)];

  async function refresh() {
    const rows = await Promise.all(resources.map(async (index) => {
      const request = {TableName: table.TableName, ...(index ? {IndexName: index} : {})};
      const {ContributorInsightsStatus: status} = await ddb('DescribeContributorInsights', request);
      const on = status === 'ENABLED' || status === 'ENABLING';
      const toggle = async () => {
        try {
          await ddb('UpdateContributorInsights',
                    {...request, ContributorInsightsAction: on ? 'DISABLE' : 'ENABLE'});
          output.textContent = `${on ? 'Disabled' : 'Enabled'} insights on ${index ?? table.TableName}`;
          output.className = 'status';
        } catch (error) {
          output.textContent = `${error.type ?? 'Error'}: ${error.message}`;
          output.className = 'status error';
        }
        refresh();
      };
      return h('tr', {}, h('td', {}, index ?? `${table.TableName} (table)`), h('td', {}, status),
               h('td', {}, h('button', {onclick: toggle}, on ? 'Disable' : 'Enable')));
    }));
    settings.replaceChildren(...rows);
    const {Rules} = await report(table.TableName);
    rules.replaceChildren(...(Rules.length ? Rules.map((rule) => h('section', {class: 'rule'},
      h('h3', {}, rule.RuleName),
      h('table', {class: 'grid insights'},
        h('thead', {}, h('tr', {}, h('th', {}, 'Key'), h('th', {}, 'Count'))),
        h('tbody', {}, ...(rule.Contributors.length
          ? rule.Contributors.map((c) => h('tr', {},
              h('td', {}, h('code', {}, plainJson({M: c.Keys}, 0))), h('td', {class: 'num'}, c.Count)))
          : [h('tr', {}, h('td', {colspan: 2}, 'Nothing counted yet.'))])))))
      : [h('p', {}, 'Contributor Insights are off for this table and its indexes.')]));
  }
  root.append(
    h('p', {}, 'The keys requests name most, and those throttled most (--throttle), as ',
      'DynamoDB\'s Contributor Insights rules count them; counted since the rules were ',
      'enabled, in memory.'),
    h('table', {class: 'grid insight-settings'},
      h('thead', {}, h('tr', {}, h('th', {}, 'Resource'), h('th', {}, 'Status'), h('th', {}, ''))),
      settings),
    output, rules);
  await refresh();
}
