import { useId, type ReactNode } from 'react';
import { Spinner } from './spinner';
import './plain.css';

/** A large, full-width contained submit button that shows a spinner while `loading`. */
export function SubmitButton({ loading = false, children }: { loading?: boolean; children: ReactNode }) {
  const id = useId();
  return (
    <button
      id={id}
      type="submit"
      disabled={loading}
      className={`cs-button cs-button--contained cs-button--large cs-button--full${loading ? ' cs-button--loading' : ''}`}
    >
      {loading ? (
        <span className="cs-button__loading">
          <Spinner size={16} inherit labelledBy={id} />
        </span>
      ) : null}
      {children}
    </button>
  );
}
