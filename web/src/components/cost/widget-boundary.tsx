import type { ReactNode } from 'react';
import { ErrorBoundary } from '@/components/error-boundary';

export interface WidgetBoundaryProps {
  /** Names the widget: "The {component} encountered an unexpected error." */
  component: string;
  children: ReactNode;
  /** Changing it clears a caught error (e.g. new data or a new period). */
  resetKey?: unknown;
  supportEmail?: string;
}

/** Keeps a broken widget from taking its page down: it shows the §2.13 fallback card instead. */
export function WidgetBoundary({ component, children, resetKey, supportEmail }: WidgetBoundaryProps) {
  return (
    <ErrorBoundary component={component} resetKey={resetKey} supportEmail={supportEmail}>
      {children}
    </ErrorBoundary>
  );
}
