/** A labelled free-text note (a few lines, with its length bound); the look is in components/form-fields.css. */
export function NoteField({
  id,
  label,
  value,
  rows,
  maxLength,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  rows: number;
  maxLength: number;
  onChange: (value: string) => void;
}) {
  return (
    <div className="pp-field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        className="pp-input"
        rows={rows}
        maxLength={maxLength}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
