// Menus and the menu-bar item for the recording fake of Electron (fake-electron.ts). A test
// can open the tray's menu and leave it open, as a user holding it under the pointer does:
// Electron then still lets the app replace it, and macOS swaps the menu under the pointer, so
// the fake reports every replacement made while it is open.
import { EventEmitter } from 'node:events';

/** A menu item as templates give it. */
export type MenuItem = {
  label?: string;
  role?: string;
  enabled?: boolean;
  click?: () => void;
  submenu?: MenuItem[];
};

/** What the tray reports. */
export type TrayEvent =
  | { type: 'tray-menu'; labels: string[]; tooltip: string; title: string }
  | { type: 'tray-title'; title: string }
  | { type: 'tray-menu-replaced-while-open' };

/** A menu built from a template; it keeps the template to click its items. */
export class FakeMenu extends EventEmitter {
  constructor(readonly items: MenuItem[]) {
    super();
  }
  /** Labels of every item, depth first, for assertions. */
  listLabels(): string[] {
    const labels: string[] = [];
    const walk = (items: MenuItem[]) => {
      for (const item of items) {
        if (item.label !== undefined) labels.push(item.label);
        else if (item.role !== undefined) labels.push(`role:${item.role}`);
        if (Array.isArray(item.submenu)) walk(item.submenu);
      }
    };
    walk(this.items);
    return labels;
  }
  /** Finds an item by its label, searching submenus too. */
  findItem(label: string): MenuItem | undefined {
    const stack = [...this.items];
    while (stack.length > 0) {
      const item = stack.shift()!;
      if (item.label === label) return item;
      if (Array.isArray(item.submenu)) stack.push(...item.submenu);
    }
    return undefined;
  }
}

/** Creates the Tray class and the controls over the one tray the app makes. */
export function createFakeTray(report: (event: TrayEvent) => void) {
  let menu: FakeMenu | null = null;
  let openMenu: FakeMenu | null = null;
  let tooltip = '';
  let title = '';
  const emitter = new EventEmitter();

  class FakeTray {
    constructor(readonly image: unknown) {}
    setContextMenu(next: FakeMenu) {
      if (openMenu !== null) report({ type: 'tray-menu-replaced-while-open' });
      menu = next;
      report({ type: 'tray-menu', labels: next.listLabels(), tooltip, title });
    }
    setToolTip(text: string) {
      tooltip = text;
    }
    setTitle(text: string) {
      if (text === title) return;
      title = text;
      report({ type: 'tray-title', title });
    }
    on(event: string, listener: () => void) {
      emitter.on(event, listener);
      return this;
    }
  }

  const control = {
    clickTrayItem: (label: string) => {
      const item = menu?.findItem(label);
      if (item?.click === undefined) throw new Error(`No tray item '${label}'`);
      item.click();
    },
    /** The pointer reaches the icon and the user opens its menu, and keeps it open. */
    openTrayMenu: () => {
      if (menu === null) throw new Error('The app set no tray menu');
      emitter.emit('mouse-enter');
      openMenu = menu;
      openMenu.emit('menu-will-show', {});
      return openMenu.listLabels();
    },
    closeTrayMenu: () => {
      const closing = openMenu;
      openMenu = null;
      closing?.emit('menu-will-close', {});
    },
    readTrayTitle: () => title,
  };
  return { Tray: FakeTray, control };
}
