// The item editor: an item as DynamoDB JSON or plain JSON, saved with a
// condition that the stored item is still the one that was opened — an
// edit conflict is shown with the current version, never overwritten
// silently. New items are put only if their key is free; changing the key
// moves the item in one transaction.

import {ddb} from './api.js';
import {status} from './clock.js';
import {h, itemFromPlain, keyOf, plainJson, sameJson} from './util.js';

// "every attribute still equals what was opened" (also: the item exists).
// An attribute added meanwhile by someone else is not detected: DynamoDB
// has no condition for "no other attributes".
function unchangedCondition(original) {
  const names = {};
  const values = {};
  const terms = Object.entries(original).map(([name, value], i) => {
    names[`#a${i}`] = name;
    values[`:a${i}`] = value;
    return `#a${i} = :a${i}`;
  });
  return {ConditionExpression: terms.join(' AND '), ExpressionAttributeNames: names,
          ExpressionAttributeValues: values};
}

function keyFreeCondition(table) {
  return {ConditionExpression: 'attribute_not_exists(#k)',
          ExpressionAttributeNames: {'#k': table.KeySchema[0].AttributeName}};
}

function render(item, format) {
  return format === 'dynamodb' ? JSON.stringify(item, null, 2) : plainJson({M: item});
}

function parse(text, format, original) {
  const item = format === 'dynamodb' ? JSON.parse(text) : itemFromPlain(text, original ?? {});
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    throw new Error('An item is a JSON object of attributes');
  }
  return item;
}

async function write(table, original, item) {
  const TableName = table.TableName;
  const onFailure = {ReturnValuesOnConditionCheckFailure: 'ALL_OLD'};
  if (!original) return ddb('PutItem', {TableName, Item: item, ...keyFreeCondition(table)});
  if (sameJson(keyOf(item, table.KeySchema), keyOf(original, table.KeySchema))) {
    return ddb('PutItem', {TableName, Item: item, ...unchangedCondition(original), ...onFailure});
  }
  return ddb('TransactWriteItems', {TransactItems: [
    {Put: {TableName, Item: item, ...keyFreeCondition(table)}},
    {Delete: {TableName, Key: keyOf(original, table.KeySchema), ...unchangedCondition(original),
              ...onFailure}}]});
}

// Opens the editor on `item` (null: a new item); `saved` runs after a write.
export function openEditor(table, item, saved) {
  let original = item;
  let format = 'dynamodb';
  const keyHint = table.KeySchema.map((k) => k.AttributeName).join(', ');
  const text = h('textarea', {class: 'item-json', rows: 18, spellcheck: 'false', 'aria-label': 'Item JSON',
                              value: item ? render(item, format)
                                          : JSON.stringify(Object.fromEntries(table.KeySchema.map((k) =>
                                              [k.AttributeName, {S: ''}])), null, 2)});
  const message = h('div', {class: 'editor-message', role: 'alert'});
  const formatSelect = h('select', {'aria-label': 'Format', onchange: () => {
    try {
      const parsed = parse(text.value, format, original);
      format = formatSelect.value;
      text.value = render(parsed, format);
    } catch (error) {
      formatSelect.value = format;
      message.replaceChildren(h('p', {class: 'error'}, error.message));
    }
  }}, h('option', {value: 'dynamodb'}, 'DynamoDB JSON'), h('option', {value: 'plain'}, 'plain JSON'));

  const showConflict = (current) => {
    message.replaceChildren(
      h('p', {class: 'error conflict'}, current
          ? 'Edit conflict: this item changed since you opened it. Your edit was not saved.'
          : 'Edit conflict: this item was deleted since you opened it. Your edit was not saved.'),
      current ? h('pre', {class: 'current'}, render(current, format)) : '',
      current ? h('button', {type: 'button', onclick: () => {
        original = current;
        text.value = render(current, format);
        message.replaceChildren(h('p', {}, 'Showing the current version.'));
      }}, 'Load the current version') : '',
      current ? h('button', {type: 'button', onclick: () => {
        original = current;
        message.replaceChildren(h('p', {}, 'Saving now replaces the current version with your text.'));
      }}, 'Keep my text over the current version') : '');
  };

  const explain = (error) => {
    if (error.type === 'ConditionalCheckFailedException' && !original) {
      message.replaceChildren(h('p', {class: 'error conflict'}, 'An item with this key already exists.'));
    } else if (error.type === 'ConditionalCheckFailedException') {
      showConflict(error.body?.Item);
    } else if (error.type === 'TransactionCanceledException') {
      message.replaceChildren(h('p', {class: 'error conflict'},
        'Edit conflict: the new key is taken or the item changed since you opened it. Nothing was saved.'));
    } else {
      message.replaceChildren(h('p', {class: 'error'}, `${error.type ?? 'Error'}: ${error.message}`));
    }
  };

  const save = async () => {
    message.replaceChildren();
    try {
      await write(table, original, parse(text.value, format, original));
      dialog.close();
      status(original ? 'Item saved' : 'Item created');
      saved();
    } catch (error) {
      explain(error);
    }
  };

  const remove = async () => {
    if (!confirm('Delete this item?')) return;
    try {
      await ddb('DeleteItem', {TableName: table.TableName, Key: keyOf(original, table.KeySchema),
                               ...unchangedCondition(original), ReturnValuesOnConditionCheckFailure: 'ALL_OLD'});
      dialog.close();
      status('Item deleted');
      saved();
    } catch (error) {
      explain(error);
    }
  };

  const dialog = h('dialog', {class: 'editor', 'aria-label': item ? 'Edit item' : 'New item'},
    h('h2', {}, item ? 'Edit item' : 'New item', h('small', {}, ` key: ${keyHint}`)),
    h('div', {class: 'row'}, formatSelect,
      h('span', {class: 'hint'}, 'Plain JSON keeps the types of existing sets and binaries; use DynamoDB JSON for new ones.')),
    text, message,
    h('div', {class: 'row'},
      h('button', {type: 'button', class: 'primary', onclick: save}, 'Save'),
      item ? h('button', {type: 'button', class: 'danger', onclick: remove}, 'Delete item') : '',
      h('button', {type: 'button', onclick: () => dialog.close()}, 'Cancel')));
  dialog.addEventListener('close', () => dialog.remove());
  dialog.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) save();
  });
  document.body.append(dialog);
  dialog.showModal();
  text.focus();
}
