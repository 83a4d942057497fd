import './plain.css';

export interface SpinnerProps {
  size?: number;
  /** Inherit the text colour (e.g. in a button) instead of the primary colour. */
  inherit?: boolean;
  label?: string;
  labelledBy?: string;
}

/** An indeterminate progress circle (the look of MUI's CircularProgress) without MUI. */
export function Spinner({ size = 40, inherit = false, label, labelledBy }: SpinnerProps) {
  return (
    <span
      className={inherit ? 'cs-spinner cs-spinner--inherit' : 'cs-spinner'}
      role="progressbar"
      aria-label={label}
      aria-labelledby={labelledBy}
      style={{ width: size, height: size }}
    >
      <svg viewBox="22 22 44 44">
        <circle cx="44" cy="44" r="20.2" fill="none" strokeWidth="3.6" />
      </svg>
    </span>
  );
}
