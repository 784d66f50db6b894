/**
 * A statement's span name and attributes from its SQL text: the verb and the table it acts on
 * ("SELECT appointments"), never the text itself. Values travel as $1… parameters and are never
 * looked at; the name is made of words that match the patterns below, so nothing else in the text
 * (a literal, a comment) can reach a span.
 */

export interface StatementName {
  /** SELECT, INSERT…, or SQL for anything else. */
  operation: string;
  /** The table (schema-qualified when written so), or null when there is no plain one. */
  table: string | null;
}

const VERBS = new Set([
  'SELECT',
  'INSERT',
  'UPDATE',
  'DELETE',
  'MERGE',
  'WITH',
  'BEGIN',
  'COMMIT',
  'ROLLBACK',
  'SAVEPOINT',
  'RELEASE',
  'LOCK',
  'SET',
  'SHOW',
  'CREATE',
  'ALTER',
  'DROP',
  'TRUNCATE',
  'VACUUM',
  'ANALYZE',
  'DO',
  'CALL',
  'NOTIFY',
]);

const IDENTIFIER = String.raw`(?:[a-z_][a-z0-9_$]*|"[a-z_][a-z0-9_$]*")`;
const TABLE = String.raw`(${IDENTIFIER}(?:\.${IDENTIFIER})?)`;
/** Where each verb names its table, at the statement's top level. */
const TABLE_AFTER: Record<string, RegExp> = {
  SELECT: new RegExp(String.raw`\bfrom\s+(?:only\s+)?${TABLE}(?![\w$"(])`, 'i'),
  DELETE: new RegExp(String.raw`\bdelete\s+from\s+(?:only\s+)?${TABLE}(?![\w$"(])`, 'i'),
  INSERT: new RegExp(String.raw`\binsert\s+into\s+${TABLE}(?![\w$"])`, 'i'),
  UPDATE: new RegExp(String.raw`\bupdate\s+(?:only\s+)?${TABLE}(?![\w$"(])`, 'i'),
  MERGE: new RegExp(String.raw`\bmerge\s+into\s+(?:only\s+)?${TABLE}(?![\w$"(])`, 'i'),
  LOCK: new RegExp(String.raw`\block\s+(?:table\s+)?(?:only\s+)?${TABLE}(?![\w$"(])`, 'i'),
  TRUNCATE: new RegExp(String.raw`\btruncate\s+(?:table\s+)?(?:only\s+)?${TABLE}(?![\w$"(])`, 'i'),
};

/**
 * The text outside parentheses, with what is inside them, string literals and comments blanked: a
 * CTE's or subquery's table is not the statement's, and a literal is never read.
 */
function topLevel(sql: string): string {
  let out = '';
  let depth = 0;
  for (let index = 0; index < sql.length; index += 1) {
    const char = sql[index]!;
    if (char === "'" || (char === '-' && sql[index + 1] === '-') || (char === '/' && sql[index + 1] === '*')) {
      const end = char === "'" ? sql.indexOf("'", index + 1) : sql.indexOf(char === '-' ? '\n' : '*/', index + 2);
      index = end < 0 ? sql.length : end + (char === '/' ? 1 : 0);
      out += ' ';
    } else if (char === '(') {
      // The outer parentheses stay, so a function's name (from unnest(…)) is not taken for a table.
      out += depth === 0 ? '(' : ' ';
      depth += 1;
    } else if (char === ')') {
      depth = Math.max(0, depth - 1);
      out += depth === 0 ? ')' : ' ';
    } else {
      out += depth === 0 ? char : ' ';
    }
  }
  return out;
}

export function statementName(sql: string): StatementName {
  const text = topLevel(sql);
  const first = /^\s*([a-z]+)/i.exec(text)?.[1]?.toUpperCase() ?? '';
  if (!VERBS.has(first)) return { operation: 'SQL', table: null };
  // A WITH's own statement is the first verb after its CTEs, which topLevel blanked.
  const operation = first === 'WITH' ? (/\b(select|insert|update|delete|merge)\b/i.exec(text)?.[1]?.toUpperCase() ?? 'WITH') : first;
  const table = TABLE_AFTER[operation]?.exec(text)?.[1] ?? null;
  return { operation, table: table === null ? null : table.replace(/"/g, '').toLowerCase() };
}

/** "SELECT appointments", or the verb alone. */
export function spanNameOf(name: StatementName): string {
  return name.table === null ? name.operation : `${name.operation} ${name.table}`;
}
