import { useAppConfig } from '@/api/queries';
import { mailto } from '@/lib/mailto';
import { Logo } from './logo';
import { Icon } from './plain/icon';
import './public-header.css';

/**
 * Header for visitors who are not signed in: logo, Documentation and the contact e-mail.
 * Plain (no MUI), the look of an outlined MUI AppBar with text buttons.
 */
export function PublicHeader() {
  const config = useAppConfig();
  return (
    <header className="cs-public-header">
      <div className="cs-public-header__toolbar">
        <Logo />
        <div className="cs-public-header__links">
          {config.documentation_url ? (
            <a className="cs-button cs-public-header__docs" href={config.documentation_url} target="_blank" rel="noreferrer">
              <span className="cs-button__start-icon">
                <Icon name="menuBookOutlined" />
              </span>
              Documentation
            </a>
          ) : null}
          {config.support_email ? (
            <a className="cs-icon-button cs-public-header__mail-icon" href={mailto(config.support_email)} aria-label="Contact support">
              <Icon name="mailOutline" />
            </a>
          ) : null}
          {config.support_email ? (
            <a className="cs-button cs-public-header__mail" href={mailto(config.support_email)}>
              <span className="cs-button__start-icon">
                <Icon name="mailOutline" />
              </span>
              {config.support_email}
            </a>
          ) : null}
        </div>
      </div>
    </header>
  );
}
