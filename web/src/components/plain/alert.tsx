import type { ReactNode } from 'react';
import { Icon } from './icon';
import './plain.css';

/** A standard error or info alert (the look of MUI's Alert) without MUI. */
export function Alert({ severity, className, children }: { severity: 'error' | 'info'; className?: string; children: ReactNode }) {
  return (
    <div className={`cs-alert cs-alert--${severity}${className ? ` ${className}` : ''}`} role="alert">
      <div className="cs-alert__icon">
        <Icon name={severity === 'error' ? 'errorOutline' : 'infoOutlined'} />
      </div>
      <div className="cs-alert__message">{children}</div>
    </div>
  );
}
