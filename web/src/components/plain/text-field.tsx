import { useState, type ChangeEvent, type Ref } from 'react';
import './plain.css';

export interface TextFieldProps {
  id: string;
  name: string;
  label: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  placeholder?: string;
  autoFocus?: boolean;
  /** A validation message: shown below the field, which turns red. */
  error?: string;
  /** Shown below the field when there is no error. */
  helperText?: string;
  inputRef?: Ref<HTMLInputElement>;
}

/**
 * An outlined, full-width text field with a floating label (the look and the accessible names of
 * MUI's TextField) without MUI.
 */
export function TextField({ id, label, value, error, helperText, inputRef, ...input }: TextFieldProps) {
  const [focused, setFocused] = useState(false);
  // Chrome fills saved passwords without an input event: the animation below tells.
  const [autofilled, setAutofilled] = useState(false);
  const shrink = focused || autofilled || value !== '';
  const helper = error ?? helperText;
  const classes = ['cs-field', focused ? 'cs-field--focused' : '', error ? 'cs-field--error' : ''].filter(Boolean);
  return (
    <div className={classes.join(' ')}>
      <label className="cs-field__label" data-shrink={shrink} htmlFor={id} id={`${id}-label`}>
        {label}
      </label>
      <div className="cs-field__input">
        <input
          {...input}
          id={id}
          ref={inputRef}
          value={value}
          aria-invalid={Boolean(error)}
          aria-describedby={helper ? `${id}-helper-text` : undefined}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
          onAnimationStart={(event) => setAutofilled(event.animationName === 'cs-auto-fill')}
        />
        <fieldset aria-hidden="true" className={shrink ? 'cs-field__outline cs-field__outline--notched' : 'cs-field__outline'}>
          <legend>
            <span>{label}</span>
          </legend>
        </fieldset>
      </div>
      {helper ? (
        <p className="cs-field__helper" id={`${id}-helper-text`}>
          {helper}
        </p>
      ) : null}
    </div>
  );
}
