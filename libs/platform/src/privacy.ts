import type { Pool, PoolClient } from "pg";

/**
 * The characters that continue an address on either side: RFC 5322's `atext` (letters, digits and
 * ``# $ % * + - = ^ _ ` { | } ~``) less those that in running text close a sentence or a quotation
 * or start an HTML entity (`'`, `?`, `!`, `&`, `/`), so that "Mail 'bob@x.nl'?" and "bob@x.nl&#39;"
 * (the HTML copy of an e-mail) still name bob@x.nl. Before an address a "." continues it too (a
 * longer local part: "jan.bob@x.nl"); after it a "." continues it only when another address
 * character follows ("bob@x.nl.eu"), so the full stop that ends a sentence does not. ASCII only:
 * a Unicode letter next to an address is read as the text around it.
 */
const ADDRESS_CHAR = "A-Za-z0-9#$%*+=^_`{|}~-";

/**
 * The address, every non-alphanumeric character escaped, between lookarounds that refuse a longer
 * address. The same text is a PostgreSQL advanced regular expression and a JavaScript one: in both
 * a backslash before a punctuation character is that character, and both have lookbehind. The
 * lookarounds consume nothing, so adjacent mentions are all found in one pass.
 */
function addressSource(email: string): string {
  const escaped = email.replace(/[^a-zA-Z0-9]/g, (c) => `\\${c}`);
  return `(?<![.${ADDRESS_CHAR}])${escaped}(?![${ADDRESS_CHAR}]|\\.[${ADDRESS_CHAR}])`;
}

/**
 * An e-mail address as a case-insensitive PostgreSQL regular expression (`~*`) that finds it in
 * free text without matching inside a longer address: "bob@x.nl" is not in "jimbob@x.nl",
 * "jim.bob@x.nl", "bob@x.nl.eu", "bob@x.nl-eu", "bob@x.nl_2", "bob@x.nl+1" or "bob@x.nl2", and is
 * in "Mail BOB@X.NL." and "(bob@x.nl)". It matches the address alone, not the text around it.
 */
export function addressPattern(email: string): string {
  return addressSource(email);
}

/** The same match in JavaScript (case-insensitive), for text outside the database (queue jobs). */
export function addressRegExp(email: string, flags = "i"): RegExp {
  return new RegExp(addressSource(email), flags);
}

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
    rows +=
      (
        await db.query(
          `UPDATE ${table} SET ${column} = regexp_replace(${column}, $1, '[gewist]', 'gi') WHERE ${column} ~* $1`,
          [pattern],
        )
      ).rowCount ?? 0;
  return rows;
}
