import { describe, expect, it } from 'vitest';
import { openerOf } from './opener';

describe('the control a closing window gives the focus back to', () => {
  it('is the focused control, or the button of the menu whose item opened the window', () => {
    document.body.innerHTML = `
      <button id="plain">Plain</button>
      <button id="target" aria-controls="menu-1">Actions</button>
      <div role="menu" id="menu-1"><button role="menuitem" id="item">Reboot</button></div>`;
    expect(openerOf(document.getElementById('plain'))?.id).toBe('plain');
    expect(openerOf(document.getElementById('item'))?.id).toBe('target');
    expect(openerOf(null)).toBeNull();
  });
});
