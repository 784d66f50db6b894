import type { InputHTMLAttributes } from 'react';

export interface TextFieldProps {
  /** The input's id; the hint and the problem get `{id}-hint` and `{id}-problem`. */
  id: string;
  name: string;
  label: string;
  hint?: string;
  value: string;
  /** The field's own problem in words, shown under it and tied to it; null when there is none. */
  problem: string | null;
  /** A message elsewhere on the page that is about this field (a server's refusal, say). */
  alsoDescribedBy?: string | null;
  onChange: (value: string) => void;
  /** Leaving the field (a form shows the field's problem from then on). */
  onBlur?: () => void;
  inputProps: InputHTMLAttributes<HTMLInputElement>;
  className?: string;
}

/**
 * A labelled text input with its hint and its problem, both read out with the input
 * (aria-describedby), and aria-invalid while either a problem or a related message stands.
 * The look is in components/form-fields.css.
 */
export function TextField({
  id,
  name,
  label,
  hint,
  value,
  problem,
  alsoDescribedBy = null,
  onChange,
  onBlur,
  inputProps,
  className = 'pp-input',
}: TextFieldProps) {
  const hintId = hint ? `${id}-hint` : null;
  const problemId = problem ? `${id}-problem` : null;
  const describedBy = [hintId, problemId, alsoDescribedBy].filter(Boolean).join(' ') || undefined;
  return (
    <div className={problem ? 'pp-field pp-field-invalid' : 'pp-field'}>
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p id={hintId ?? undefined} className="pp-field-hint">
          {hint}
        </p>
      )}
      <input
        {...inputProps}
        id={id}
        name={name}
        className={className}
        value={value}
        aria-invalid={problem !== null || alsoDescribedBy !== null}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
      />
      {problem && (
        <p id={problemId ?? undefined} className="pp-field-error">
          {problem}
        </p>
      )}
    </div>
  );
}
