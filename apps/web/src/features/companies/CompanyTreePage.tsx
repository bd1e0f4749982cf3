import { pathOf } from '@fleetgate/shared/routes';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
} from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageFrame } from '#src/components/page/PageFrame';
import { failureMessage } from '#src/lib/http/results';
import type { PageProps } from '#src/lib/routing/page';
import { type CompanyTreeNode, useCompanyTree } from './api/companies';
import { useCompanyActions } from './hooks/use-company-actions';

/** Ids of every node with children: what 'Expand all' opens. */
export function branchIds(nodes: readonly CompanyTreeNode[]): number[] {
  return nodes.flatMap((n) => (n.children.length ? [n.id, ...branchIds(n.children)] : []));
}

type NodeProps = {
  node: CompanyTreeNode;
  open: ReadonlySet<number>;
  toggle(id: number): void;
};

function TreeNodeItem({ node, open, toggle }: NodeProps) {
  const { t } = useTranslation('companies');
  const expanded = open.has(node.id);
  const childrenId = `company-tree-children-${node.id}`;
  return (
    <Box
      component="li"
      data-testid="tree-node"
      data-company-id={node.id}
      data-name={node.name}
      style={{ listStyle: 'none' }}
    >
      <Group gap={6} wrap="nowrap" align="flex-start" py={2}>
        {node.children.length ? (
          <ActionIcon
            variant="subtle"
            color="gray"
            size="sm"
            aria-expanded={expanded}
            aria-controls={childrenId}
            aria-label={t(expanded ? 'tree.collapse' : 'tree.expand', { name: node.name })}
            onClick={() => toggle(node.id)}
            data-testid="tree-toggle"
          >
            {expanded ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
          </ActionIcon>
        ) : (
          <Box w={22} aria-hidden />
        )}
        {/* A long name wraps; the id and the badges follow it, whole, on the same line or the next. */}
        <Group gap={6} wrap="wrap" miw={0} style={{ flex: 1 }}>
          <Anchor
            component={Link}
            to={pathOf('company.info', { company_id: node.id })}
            miw={0}
            style={{ overflowWrap: 'anywhere' }}
            data-testid="tree-link"
          >
            {node.name}
          </Anchor>
          <Group gap={6} wrap="nowrap" style={{ flex: 'none' }}>
            <Text size="xs" c="dimmed">
              #{node.id}
            </Text>
            <Badge size="xs" variant="light" color="gray" style={{ flex: 'none' }}>
              {t('tree.level', { level: node.level })}
            </Badge>
            <Badge size="xs" variant="light" style={{ flex: 'none' }}>
              {t('tree.users', { count: node.users_count })}
            </Badge>
          </Group>
        </Group>
      </Group>
      {expanded && node.children.length > 0 && (
        <Box component="ul" id={childrenId} pl="lg" m={0}>
          {node.children.map((child) => (
            <TreeNodeItem key={child.id} node={child} open={open} toggle={toggle} />
          ))}
        </Box>
      )}
    </Box>
  );
}

/** company.tree (product §2): the caller's subtree as an expandable tree, each node linking to its company. */
export function CompanyTreePage({ chain, params }: PageProps) {
  const { t } = useTranslation('companies');
  const tree = useCompanyTree();
  const actions = useCompanyActions();
  const roots = tree.data?.roots ?? [];
  // The top levels start open; deeper levels open on demand.
  const [open, setOpen] = useState<Set<number> | null>(null);
  const opened = open ?? new Set(roots.map((r) => r.id));
  const toggle = (id: number) => {
    const next = new Set(opened);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setOpen(next);
  };

  return (
    <PageFrame
      chain={chain}
      params={params}
      actions={
        <Group gap="xs">
          <Button
            variant="default"
            onClick={() => setOpen(new Set(branchIds(roots)))}
            data-testid="tree-expand-all"
          >
            {t('tree.expandAll')}
          </Button>
          <Button variant="default" onClick={() => setOpen(new Set())}>
            {t('tree.collapseAll')}
          </Button>
          {actions.canCreate && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => void actions.create()}>
              {t('action.create')}
            </Button>
          )}
        </Group>
      }
    >
      <Stack>
        {tree.isPending && <Loader />}
        {tree.isError && (
          <Alert color="red" role="alert">
            {failureMessage(tree.error, 'get', 'companies')}
          </Alert>
        )}
        {tree.data?.truncated && (
          <Alert color="yellow" data-testid="tree-truncated">
            {t('tree.truncated')}
          </Alert>
        )}
        {tree.data && (
          <Paper withBorder p="md">
            <Box component="ul" m={0} p={0} aria-label={t('tree.label')} data-testid="company-tree">
              {roots.map((node) => (
                <TreeNodeItem key={node.id} node={node} open={opened} toggle={toggle} />
              ))}
            </Box>
          </Paper>
        )}
      </Stack>
    </PageFrame>
  );
}
