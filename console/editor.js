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

function initialText(table, item, format) {
  if (item) return render(item, format);
  const key = Object.fromEntries(table.KeySchema.map((k) => [k.AttributeName, {S: ''}]));
  return JSON.stringify(key, null, 2);
}

// One open editor dialog. `original` is the version the next save must
// find stored (null for a new item).
class ItemEditor {
  constructor(table, item, saved) {
    this.table = table;
    this.original = item;
    this.isNew = !item;
    this.saved = saved;
    this.format = 'dynamodb';
    this.text = h('textarea', {class: 'item-json', rows: 18, spellcheck: 'false', 'aria-label': 'Item JSON',
                               value: initialText(table, item, this.format)});
    this.message = h('div', {class: 'editor-message', role: 'alert'});
    this.formatSelect = h('select', {'aria-label': 'Format', onchange: () => this.changeFormat()},
                          h('option', {value: 'dynamodb'}, 'DynamoDB JSON'),
                          h('option', {value: 'plain'}, 'plain JSON'));
    this.dialog = this.build();
  }

  build() {
    const keyHint = this.table.KeySchema.map((k) => k.AttributeName).join(', ');
    const dialog = h('dialog', {class: 'editor', 'aria-label': this.isNew ? 'New item' : 'Edit item'},
      h('h2', {}, this.isNew ? 'New item' : 'Edit item', h('small', {}, ` key: ${keyHint}`)),
      h('div', {class: 'row'}, this.formatSelect, h('span', {class: 'hint'},
        'Plain JSON keeps the types of existing sets and binaries; use DynamoDB JSON for new ones. ' +
        'Ctrl+Enter saves, Escape closes.')),
      this.text, this.message,
      h('div', {class: 'row'},
        h('button', {type: 'button', class: 'primary', onclick: () => this.save()}, 'Save'),
        this.isNew ? '' : h('button', {type: 'button', class: 'danger', onclick: () => this.remove()},
                                'Delete item'),
        h('button', {type: 'button', onclick: () => dialog.close()}, 'Cancel')));
    dialog.addEventListener('close', () => dialog.remove());
    dialog.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) this.save();
    });
    return dialog;
  }

  show() {
    document.body.append(this.dialog);
    this.dialog.showModal();
    this.text.focus();
  }

  say(...nodes) {
    this.message.replaceChildren(...nodes);
  }

  changeFormat() {
    try {
      const parsed = parse(this.text.value, this.format, this.original);
      this.format = this.formatSelect.value;
      this.text.value = render(parsed, this.format);
    } catch (error) {
      this.formatSelect.value = this.format;
      this.say(h('p', {class: 'error'}, error.message));
    }
  }

  showConflict(current) {
    if (!current) {
      this.say(h('p', {class: 'error conflict'},
        'Edit conflict: this item was deleted since you opened it. Your edit was not saved.'));
      return;
    }
    this.say(
      h('p', {class: 'error conflict'},
        'Edit conflict: this item changed since you opened it. Your edit was not saved.'),
      h('pre', {class: 'current'}, render(current, this.format)),
      h('button', {type: 'button', onclick: () => {
        this.original = current;
        this.text.value = render(current, this.format);
        this.say(h('p', {}, 'Showing the current version.'));
      }}, 'Load the current version'),
      h('button', {type: 'button', onclick: () => {
        this.original = current;
        this.say(h('p', {}, 'Saving now replaces the current version with your text.'));
      }}, 'Keep my text over the current version'));
  }

  explain(error) {
    if (error.type === 'ConditionalCheckFailedException' && !this.original) {
      this.say(h('p', {class: 'error conflict'}, 'An item with this key already exists.'));
    } else if (error.type === 'ConditionalCheckFailedException') {
      this.showConflict(error.body?.Item);
    } else if (error.type === 'TransactionCanceledException') {
      this.say(h('p', {class: 'error conflict'},
        'Edit conflict: the new key is taken or the item changed since you opened it. Nothing was saved.'));
    } else {
      this.say(h('p', {class: 'error'}, `${error.type ?? 'Error'}: ${error.message}`));
    }
  }

  async save() {
    this.say();
    try {
      await write(this.table, this.original, parse(this.text.value, this.format, this.original));
      this.dialog.close();
      status(this.isNew ? 'Item created' : 'Item saved');
      this.saved();
    } catch (error) {
      this.explain(error);
    }
  }

  async remove() {
    if (!confirm('Delete this item?')) return;
    try {
      await ddb('DeleteItem', {TableName: this.table.TableName, Key: keyOf(this.original, this.table.KeySchema),
                               ...unchangedCondition(this.original),
                               ReturnValuesOnConditionCheckFailure: 'ALL_OLD'});
      this.dialog.close();
      status('Item deleted');
      this.saved();
    } catch (error) {
      this.explain(error);
    }
  }
}

// Opens the editor on `item` (null: a new item); `saved` runs after a write.
export function openEditor(table, item, saved) {
  new ItemEditor(table, item, saved).show();
}
