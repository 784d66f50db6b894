/** Label and value pairs as a description list; pairs without a value are left out. */
export function DetailsList({ rows }: { rows: readonly (readonly [string, string | null | undefined])[] }) {
  return (
    <dl className="pp-details">
      {rows
        .filter((row): row is readonly [string, string] => Boolean(row[1]))
        .map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  );
}
