import { PERMISSIONS } from '@fleetgate/shared/permissions';
import { DEFAULT_ROLES } from '@fleetgate/shared/roles';
import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '#src/i18n/i18n';
import { PERMISSION_GROUPS } from '../permission-groups';
import { PermissionPicker } from './PermissionPicker';

const END_USER = DEFAULT_ROLES.find((r) => r.name === 'end_user')!.permissions;
let latest: string[] = [];

function Harness({ held }: { held: readonly string[] }) {
  const [value, setValue] = useState<string[]>([]);
  latest = value;
  return (
    <MantineProvider env="test">
      <PermissionPicker value={value} onChange={setValue} held={held} />
    </MantineProvider>
  );
}

const box = (permission: string) =>
  document.querySelector<HTMLInputElement>(
    `[data-permission="${permission}"] input, input[data-permission="${permission}"]`,
  )!;

beforeAll(async () => {
  await initI18n();
});
afterEach(cleanup);

describe('the permission editor (product §2 users.roles)', () => {
  it('shows the whole catalogue and lets only held permissions be ticked', () => {
    render(<Harness held={END_USER} />);
    const all = PERMISSIONS.map(box);
    expect(all.every(Boolean)).toBe(true);
    const enabled = PERMISSIONS.filter((p) => !box(p).disabled);
    expect(enabled.sort()).toEqual([...END_USER].sort());
    expect(box('manage_companies').disabled).toBe(true);
  });

  it('a section checkbox takes only the grantable permissions of its section', () => {
    render(<Harness held={END_USER} />);
    fireEvent.click(
      screen.getByTestId('group-accounts').querySelector('input') ?? screen.getByTestId('group-accounts'),
    );
    const section = PERMISSION_GROUPS.accounts as readonly string[];
    expect(latest.sort()).toEqual(section.filter((p) => END_USER.includes(p as never)).sort());
    expect(latest).not.toContain('manage_users');
  });

  it('ticks and unticks a single permission', () => {
    render(<Harness held={END_USER} />);
    fireEvent.click(box('view_tags'));
    expect(latest).toEqual(['view_tags']);
    fireEvent.click(box('view_tags'));
    expect(latest).toEqual([]);
  });
});
