/**
 * A PostgreSQL array literal of numbers or plain strings (dates, ISO instants, decimal keys), for a
 * `$n::int[]`-style parameter: one join instead of node-pg's quoting and escaping of each element,
 * which was a tenth of the history import's CPU. Never for text that may hold quotes, commas,
 * braces, backslashes, spaces or NULL: those keep node-pg's own array parameters.
 */
export function sqlArray(values: readonly (number | string)[]): string {
  return `{${values.join(",")}}`;
}
