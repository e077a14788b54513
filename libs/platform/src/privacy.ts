import type { Pool, PoolClient } from "pg";

/**
 * An e-mail address (lower-cased) as a case-insensitive PostgreSQL regular expression (`~*`) that
 * finds it in free text without matching inside a longer address ("bob@x.nl" is not in
 * "jimbob@x.nl" or "bob@x.nl.eu"). Every non-alphanumeric character is escaped: in PostgreSQL's
 * regular expressions a backslash before one is always the character itself.
 */
export function addressPattern(email: string): string {
  const escaped = email.replace(/[^a-zA-Z0-9]/g, (c) => `\\${c}`);
  return `(^|[^a-z0-9._%+-])${escaped}($|[^a-z0-9_-]|\\.($|[^a-z0-9]))`;
}

/** The same match in JavaScript (case-insensitive), for text outside the database (queue jobs). */
export function addressRegExp(email: string): RegExp {
  const escaped = email.replace(/[^a-zA-Z0-9]/g, (c) => `\\${c}`);
  return new RegExp(`(^|[^a-z0-9._%+-])${escaped}($|[^a-z0-9_-]|\\.($|[^a-z0-9]))`, "i");
}

/** Adjacent mentions share a boundary character, so one pass may leave one: a few passes at most. */
const MENTION_PASSES = 3;

/**
 * Replaces the address with `[gewist]` wherever it is mentioned in the given text columns of rows
 * that stay (another person's message, a note, an e-mail about someone else): those rows are not
 * the person's, so they are neither exported nor removed. Answers the number of rows changed.
 */
export async function redactMentions(
  db: Pool | PoolClient,
  email: string,
  columns: readonly (readonly [table: string, column: string])[],
): Promise<number> {
  const pattern = addressPattern(email);
  let rows = 0;
  for (const [table, column] of columns)
    for (let pass = 0; pass < MENTION_PASSES; pass++) {
      const changed =
        (
          await db.query(
            `UPDATE ${table} SET ${column} = regexp_replace(${column}, $1, '\\1[gewist]\\2', 'gi')
              WHERE ${column} ~* $1`,
            [pattern],
          )
        ).rowCount ?? 0;
      if (pass === 0) rows += changed;
      if (changed === 0) break;
    }
  return rows;
}
