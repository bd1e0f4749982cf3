import { and, asc, desc, ilike, or, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { badRequest } from '../http/errors';
import type { ListQuery } from '../http/list-query';

export type ListSpec<F extends string> = {
  /** Every field a caller may ask for, sort by or search, and the column behind it. */
  columns: Record<F, AnyPgColumn>;
  sortable: readonly F[];
  searchable: readonly F[];
  /** Searched when `search-fields` names none of ours. */
  defaultSearch: readonly F[];
  defaultSort: string;
  /** Tie-breaker that makes paging stable. */
  idColumn: AnyPgColumn;
};

/** `%` and `_` typed by a user are literal characters, not wildcards. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Turns list parameters into SQL pieces, refusing unknown fields and sorts with a 400
 * that names the parameter.
 */
export function listPlan<F extends string>(spec: ListSpec<F>, query: ListQuery) {
  const known = Object.keys(spec.columns) as F[];
  const isField = (f: string): f is F => (known as string[]).includes(f);

  const sortText = query.sort ?? spec.defaultSort;
  const sortField = sortText.replace(/^-/, '');
  if (!isField(sortField) || !spec.sortable.includes(sortField)) {
    throw badRequest(`Cannot sort by ${sortField}. Sortable: ${spec.sortable.join(', ')}`, 'sort');
  }
  const direction = sortText.startsWith('-') ? desc : asc;
  const orderBy = [direction(spec.columns[sortField]), direction(spec.idColumn)];

  // product §7 Search asks every endpoint for the same union of fields (id,name,status,email,
  // protocol,enabled,color): fields an endpoint does not have are skipped, not refused.
  const fields = query.fields?.length ? query.fields.filter(isField) : undefined;

  let search: SQL | undefined;
  if (query.q) {
    const asked = (query['search-fields'] ?? []).filter(
      (f): f is F => isField(f) && spec.searchable.includes(f),
    );
    const searched = asked.length ? asked : spec.defaultSearch;
    search = or(...searched.map((f) => ilike(spec.columns[f], likePattern(query.q!))));
  }
  return { orderBy, search, fields: fields as F[] | undefined, limit: query.limit, offset: query.offset };
}

export const allOf = (...parts: (SQL | undefined)[]) =>
  and(...parts.filter((p): p is SQL => p !== undefined));
