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
