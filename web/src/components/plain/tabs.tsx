import { useRef, type KeyboardEvent } from 'react';
import './plain.css';

export interface TabItem<T extends string> {
  value: T;
  label: string;
  id: string;
  controls: string;
}

/**
 * Full-width tabs (the look and keyboard of MUI's Tabs: arrow keys, Home and End move the focus,
 * Enter or Space selects) without MUI.
 */
export function Tabs<T extends string>({ tabs, value, onChange }: { tabs: TabItem<T>[]; value: T; onChange: (value: T) => void }) {
  const list = useRef<HTMLDivElement>(null);
  const selected = Math.max(0, tabs.findIndex((tab) => tab.value === value));

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const buttons = [...(list.current?.querySelectorAll<HTMLButtonElement>('[role="tab"]') ?? [])];
    const current = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (current < 0) return;
    const next = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: buttons.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    buttons[(next + buttons.length) % buttons.length]?.focus();
  };

  return (
    <div className="cs-tabs cs-mb-3">
      <div className="cs-tabs__scroller">
        <div role="tablist" className="cs-tabs__list" ref={list} onKeyDown={onKeyDown}>
          {tabs.map((tab) => (
            <button
              key={tab.value}
              type="button"
              role="tab"
              className="cs-tab"
              id={tab.id}
              aria-controls={tab.controls}
              aria-selected={tab.value === value}
              tabIndex={tab.value === value ? 0 : -1}
              onClick={() => onChange(tab.value)}
            >
              {tab.label}
            </button>
          ))}
        </div>
        <span
          className="cs-tabs__indicator"
          style={{ left: `${(selected * 100) / tabs.length}%`, width: `${100 / tabs.length}%` }}
        />
      </div>
    </div>
  );
}
