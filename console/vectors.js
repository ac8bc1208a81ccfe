// A table's vector indexes in the items view: pick an index, give a query
// vector (a JSON array of numbers) and TopK, and the values of the index's
// search schema attributes to filter on (its HASH one is required), then
// see the nearest items with their scores, best first.

import {ddb} from './api.js';
import {cellText, field, h, select} from './util.js';

function typeOf(table, attribute) {
  return table.AttributeDefinitions.find((d) => d.AttributeName === attribute)?.AttributeType ?? 'S';
}

// The SearchVectors request the form describes.
function searchRequest(table, index, form) {
  const vector = JSON.parse(form.elements.vector.value);
  if (!Array.isArray(vector) || !vector.every((x) => typeof x === 'number')) {
    throw new Error('The query vector must be a JSON array of numbers, e.g. [0.1, 0.2, 0.3]');
  }
  const request = {TableName: table.TableName, IndexName: index.IndexName,
                   SearchVector: vector.map((x) => ({N: String(x)})),
                   TopK: Number(form.elements.topK.value)};
  const terms = [];
  (index.SearchSchema ?? []).forEach((element, i) => {
    const value = form.elements[`filter${i}`].value;
    if (value === '') return;
    request.ExpressionAttributeNames ??= {};
    request.ExpressionAttributeValues ??= {};
    request.ExpressionAttributeNames[`#s${i}`] = element.AttributeName;
    request.ExpressionAttributeValues[`:s${i}`] = {[typeOf(table, element.AttributeName)]: value};
    terms.push(`#s${i} = :s${i}`);
  });
  if (terms.length) request.SearchConditionExpression = terms.join(' AND ');
  return request;
}

function resultsTable(table, results) {
  if (!results.length) return h('p', {}, 'No items.');
  const names = [...new Set(results.flatMap((r) => Object.keys(r.Item)))];
  return h('table', {class: 'grid vector-results'},
    h('thead', {}, h('tr', {}, h('th', {}, 'Score'), ...names.map((n) => h('th', {}, n)))),
    h('tbody', {}, results.map((r) => h('tr', {},
      h('td', {class: 'num'}, String(r.Score)),
      ...names.map((n) => h('td', {}, r.Item[n] === undefined ? '' : cellText(r.Item[n])))))));
}

export function vectorSearchPanel(table) {
  const indexes = table.VectorIndexes ?? [];
  if (!indexes.length) return h('div');
  const output = h('div', {class: 'vector-output'});
  const filters = h('div', {class: 'row'});
  const form = h('form', {class: 'vector-search'},
    h('h2', {}, 'Search vectors'),
    h('div', {class: 'row'},
      field('Vector index', select(indexes.map((i) => [i.IndexName,
        `${i.IndexName} (${i.VectorAttribute.AttributeName}, ${i.Dimensions} dimensions, ` +
        `${i.DistanceFunction})`]), indexes[0].IndexName, {name: 'index'})),
      field('TopK', h('input', {name: 'topK', type: 'number', min: 1, max: 100, value: 10}))),
    field('Query vector (JSON array)', h('textarea', {name: 'vector', rows: 2,
                                                     placeholder: '[0.1, 0.2, 0.3]'})),
    filters,
    h('button', {type: 'submit'}, 'Search'), output);
  const index = () => indexes.find((i) => i.IndexName === form.elements.index.value);
  const showFilters = () => filters.replaceChildren(...(index().SearchSchema ?? []).map((e, i) =>
    field(`${e.AttributeName} = (${e.SearchSchemaElementType === 'HASH' ? 'required' : 'optional'})`,
          h('input', {name: `filter${i}`}))));
  form.elements.index.addEventListener('change', showFilters);
  showFilters();
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      const answer = await ddb('SearchVectors', searchRequest(table, index(), form));
      output.replaceChildren(resultsTable(table, answer.SearchResults));
    } catch (error) {
      output.replaceChildren(h('p', {class: 'error', role: 'alert'},
                               `${error.type ?? 'Error'}: ${error.message}`));
    }
  });
  return form;
}
