import { Link as RouterLink } from 'react-router';
import './logo.css';

function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="#1b5e8c" />
      <circle cx="16" cy="16" r="8" fill="none" stroke="#fff" strokeWidth="3" />
      <path d="M16 8v8l6 4" stroke="#7fd3c7" strokeWidth="3" fill="none" strokeLinecap="round" />
    </svg>
  );
}

/** The product logo; a link home. Plain (no MUI): the sign-in page shows it too. */
export function Logo() {
  return (
    <RouterLink to="/" aria-label="Costscope home" className="cs-logo">
      <LogoMark />
      <span className="cs-logo__name">Costscope</span>
    </RouterLink>
  );
}
