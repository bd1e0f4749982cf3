import { pathOf } from '@fleetgate/shared/routes';
import type { TagJson } from '@fleetgate/shared/schemas/tags';
import { Anchor, Button, ColorSwatch, Group, Stack, Text } from '@mantine/core';
import { IconChartBar, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { openForm } from '#src/components/forms/open-form';
import { ListSearch } from '#src/components/table/ListSearch';
import { type Column, PagedTable, pageQueryProps } from '#src/components/table/PagedTable';
import { RowAction } from '#src/components/table/RowAction';
import { useListState } from '#src/components/table/use-list-state';
import { useWindows } from '#src/lib/dialogs/use-windows';
import { useAction } from '#src/lib/http/use-action';
import { useSession } from '#src/lib/session/session-context';
import { formatTime } from '#src/lib/time';
import { tagActions, tagKeys, useTags } from '../api/tags';
import { editTagForm, newTagForm } from '../forms/tag-forms';

export const TAGS_PAGE_SIZE = 25;

/** The 'new tag' button: opens newTag, preset to a company when the table shows one. */
export function NewTagButton({ companyId }: { companyId?: number }) {
  const { t } = useTranslation('tags');
  const { can } = useSession();
  if (!can('manage_tags')) return null;
  return (
    <Button
      leftSection={<IconPlus size={16} />}
      onClick={async () => void openForm(await newTagForm(companyId === undefined ? {} : { companyId }))}
      data-testid="tag-create"
    >
      {t('action.create')}
    </Button>
  );
}

/**
 * The tags table of tags.main and of a company's tags tab (product §2): search, sort,
 * paging by the server; each tag links to its chart. Names and descriptions are shown
 * as text, never as markup.
 */
export function TagsTable({ companyId }: { companyId?: number }) {
  const { t } = useTranslation('tags');
  const { can } = useSession();
  const windows = useWindows();
  const removal = useAction({
    call: (tag: TagJson) => tagActions.remove(tag.id),
    failure: { verb: 'remove', item: 'tag' },
    invalidate: [tagKeys.all],
    success: t('delete.done'),
  });
  const list = useListState({ defaultSort: 'name', pageSize: TAGS_PAGE_SIZE });
  const query = useTags({
    q: list.q,
    sort: list.sort,
    limit: list.limit,
    offset: list.offset,
    ...(companyId === undefined ? {} : { company_id: [companyId] }),
  });
  const manage = can('manage_tags');

  async function remove(tag: TagJson) {
    const yes = await windows.confirm({
      title: t('delete.title'),
      message: t('delete.message', { name: tag.name, count: tag.devices_count }),
      confirmLabel: t('delete.confirm'),
      danger: true,
      id: `tag-delete:${tag.id}`,
    });
    if (!yes) return;
    await removal.run(tag);
  }

  const columns: Column<TagJson>[] = [
    {
      key: 'name',
      header: t('column.name'),
      sortKey: 'name',
      render: (tag) => (
        <Group gap={8} wrap="nowrap">
          <ColorSwatch color={tag.color} size={14} aria-hidden />
          <Anchor component={Link} to={pathOf('management.tag_chart', { id: tag.id })} data-testid="tag-name">
            {tag.name}
          </Anchor>
        </Group>
      ),
    },
    ...(companyId === undefined
      ? [
          {
            key: 'company',
            header: t('column.company'),
            sortKey: 'company_name',
            render: (tag: TagJson) =>
              can('view_companies') ? (
                <Anchor component={Link} to={pathOf('company.info', { company_id: tag.company_id })}>
                  {tag.company_name}
                </Anchor>
              ) : (
                tag.company_name
              ),
          },
        ]
      : []),
    {
      key: 'description',
      header: t('column.description'),
      render: (tag) => (
        <Text size="sm" lineClamp={2} maw={360} data-testid="tag-description">
          {tag.description || '-'}
        </Text>
      ),
    },
    {
      key: 'devices',
      header: t('column.devices'),
      sortKey: 'devices_count',
      width: 100,
      render: (tag) => tag.devices_count,
    },
    {
      key: 'created',
      header: t('column.created'),
      sortKey: 'created_at',
      render: (tag) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatTime(tag.created_at)}
        </Text>
      ),
    },
    {
      key: 'actions',
      header: t('column.actions'),
      width: 130,
      render: (tag) => (
        <Group gap={4} wrap="nowrap">
          <Anchor
            component={Link}
            to={pathOf('management.tag_chart', { id: tag.id })}
            aria-label={t('action.chart')}
            title={t('action.chart')}
            c="gray"
            px={4}
          >
            <IconChartBar size={16} />
          </Anchor>
          {manage && (
            <>
              <RowAction
                label={t('action.edit')}
                onClick={() => void openForm(editTagForm, { id: tag.id })}
                testId="tag-edit"
              >
                <IconPencil size={16} />
              </RowAction>
              <RowAction
                label={t('action.delete')}
                color="red"
                onClick={() => void remove(tag)}
                testId="tag-delete"
              >
                <IconTrash size={16} />
              </RowAction>
            </>
          )}
        </Group>
      ),
    },
  ];

  return (
    <Stack>
      <ListSearch
        list={list}
        label={t('search.label')}
        placeholder={t('search.placeholder')}
        maw={360}
        testId="tags-search"
      />
      <PagedTable
        columns={columns}
        {...pageQueryProps(query, 'tags', 'fetching')}
        rowProps={(tag) => ({ 'data-testid': 'tag-row', 'data-tag-id': tag.id })}
        list={list}
        label={t('table.label')}
        empty={list.q ? t('table.noMatch') : t('table.empty')}
        testId="tags-table"
      />
    </Stack>
  );
}

/** company.tags (product §2): the tags of one company, with 'new tag' preset to it. */
export function CompanyTagsTab({ companyId }: { companyId: number }) {
  return (
    <Stack>
      <Group justify="flex-end">
        <NewTagButton companyId={companyId} />
      </Group>
      <TagsTable companyId={companyId} />
    </Stack>
  );
}
