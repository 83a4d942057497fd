import { Spinner } from './plain/spinner';

/** A page-sized loading circle; plain (no MUI), so the signed-out shell can show it too. */
export function FullPageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="cs-full-page-spinner">
      <Spinner label={label} />
    </div>
  );
}
