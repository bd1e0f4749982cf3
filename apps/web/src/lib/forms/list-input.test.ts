import { MAX_FILE_SIZE_BYTES } from '@fleetgate/shared/constants';
import { describe, expect, it } from 'vitest';
import { addListValues, addTypedItems, checkCsvFile, csvLines, removeLast } from './list-input';

describe('list input (product §5)', () => {
  it('adds trimmed items; a comma separates them', () => {
    expect(addTypedItems([], ' a , b,c ', {})).toEqual({
      items: ['a', 'b', 'c'],
      error: undefined,
      rest: '',
    });
  });

  it('refuses blank items and keeps what was not added', () => {
    const result = addTypedItems(['a'], 'b,  ,c', {});
    expect(result.items).toEqual(['a', 'b']);
    expect(result.error).toEqual({ code: 'blank' });
    expect(result.rest).toBe(',c');
  });

  it('refuses duplicates with uniqueItems, drops them quietly with noDupes, allows them otherwise', () => {
    expect(addTypedItems(['a'], 'a', { uniqueItems: true }).error).toEqual({ code: 'duplicate', value: 'a' });
    expect(addTypedItems(['a'], 'a,b', { noDupes: true })).toMatchObject({ items: ['a', 'b'], rest: '' });
    expect(addTypedItems(['a'], 'a', {}).items).toEqual(['a', 'a']);
  });

  it('holds the maximum item count', () => {
    const result = addTypedItems(['a', 'b'], 'c,d', { maxItems: 3 });
    expect(result.items).toEqual(['a', 'b', 'c']);
    expect(result.error).toEqual({ code: 'maxItems', limit: 3 });
  });

  it('converts numbers and checks their range', () => {
    expect(addTypedItems([], '1, 2.5', { type: 'number' }).items).toEqual([1, 2.5]);
    expect(addTypedItems([], 'x', { type: 'number' }).error).toEqual({ code: 'number', value: 'x' });
    expect(addTypedItems([], '0', { type: 'number', min: 1 }).error).toEqual({
      code: 'min',
      value: '0',
      limit: 1,
    });
    expect(addTypedItems([], '11', { type: 'number', max: 10 }).error).toMatchObject({
      code: 'max',
      limit: 10,
    });
    // A number equal to a stored one is a duplicate whatever its spelling.
    expect(addTypedItems([1], '1.0', { type: 'number', uniqueItems: true }).error?.code).toBe('duplicate');
  });

  it('checks item length and pattern (the whole item must match)', () => {
    expect(addTypedItems([], 'ab', { minItemLength: 3 }).error).toMatchObject({
      code: 'minLength',
      limit: 3,
    });
    expect(addTypedItems([], 'abcd', { maxItemLength: 3 }).error).toMatchObject({
      code: 'maxLength',
      limit: 3,
    });
    expect(addTypedItems([], '12a', { pattern: '[0-9]+' }).error).toEqual({ code: 'pattern', value: '12a' });
    expect(addTypedItems([], '123', { pattern: '[0-9]+' }).items).toEqual(['123']);
  });

  it('Backspace on an empty input removes the last item', () => {
    expect(removeLast(['a', 'b'])).toEqual(['a']);
    expect(removeLast([])).toEqual([]);
  });

  it('CSV: lines trimmed, blanks skipped, each line one item', () => {
    expect(csvLines(' one \r\n\r\ntwo\n  \nthree,3\n')).toEqual(['one', 'two', 'three,3']);
    expect(addListValues([], csvLines('a\nb\na'), { noDupes: true }).items).toEqual(['a', 'b']);
  });

  it('CSV upload must be a CSV below 80 MB', () => {
    expect(checkCsvFile({ name: 'list.txt', type: 'text/plain', size: 10 })).toBe('notCsv');
    expect(checkCsvFile({ name: 'list.csv', type: '', size: 10 })).toBeNull();
    expect(checkCsvFile({ name: 'export', type: 'text/csv', size: 10 })).toBeNull();
    expect(checkCsvFile({ name: 'big.csv', type: 'text/csv', size: MAX_FILE_SIZE_BYTES })).toBe('tooLarge');
  });
});
