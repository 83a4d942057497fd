import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';

/** The part of a zod (mini) schema the form needs. */
export interface FormSchema<T> {
  safeParse(input: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}

type Values = Record<string, string>;

/** The first message of each field, as react-hook-form's zod resolver reports them. */
function firstErrors<T extends Values>(issues: { path: PropertyKey[]; message: string }[]): Partial<Record<keyof T, string>> {
  const errors: Partial<Record<keyof T, string>> = {};
  for (const issue of issues) {
    const field = issue.path[0] as keyof T;
    if (field !== undefined && errors[field] === undefined) errors[field] = issue.message;
  }
  return errors;
}

/**
 * A small form state for the sign-in and sign-up forms (what they used of react-hook-form, which
 * the sign-in page's script budget leaves out): the schema checks the values on submit, then on
 * every change; a failed submit focuses the first field in error; `onValid` gets the parsed values.
 */
export function useSchemaForm<T extends Values>(schema: FormSchema<T>, initial: T) {
  const [values, setValues] = useState<T>(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof T, string>>>({});
  const submitted = useRef(false);
  const inputs = useRef(new Map<keyof T, HTMLInputElement>());

  /** Checks `next`, shows its errors and returns the parse result with them. */
  const check = (next: T) => {
    const result = schema.safeParse(next);
    const found: Partial<Record<keyof T, string>> = result.success ? {} : firstErrors<T>(result.error.issues);
    setErrors(found);
    return { result, found };
  };

  const field = (name: keyof T & string) => ({
    name,
    value: values[name],
    error: errors[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const next = { ...values, [name]: event.target.value };
      setValues(next);
      if (submitted.current) check(next);
    },
    inputRef: (element: HTMLInputElement | null) => {
      if (element) inputs.current.set(name, element);
      else inputs.current.delete(name);
    },
  });

  const handleSubmit = (onValid: (data: T) => void) => (event: FormEvent) => {
    event.preventDefault();
    submitted.current = true;
    const { result, found } = check(values);
    if (result.success) {
      onValid(result.data);
      return;
    }
    const first = (Object.keys(initial) as (keyof T)[]).find((name) => found[name] !== undefined);
    if (first !== undefined) inputs.current.get(first)?.focus();
  };

  return { field, handleSubmit };
}
