/**
 * Remembers the answers of a pure string predicate, up to `max` distinct inputs (then starts
 * over). User agents and proxy addresses repeat heavily, and the isbot regex and BlockList checks
 * cost microseconds on every hit.
 */
export function memoize(fn: (input: string) => boolean, max = 5000): (input: string) => boolean {
  const seen = new Map<string, boolean>();
  return (input) => {
    let answer = seen.get(input);
    if (answer === undefined) {
      answer = fn(input);
      if (seen.size >= max) seen.clear();
      seen.set(input, answer);
    }
    return answer;
  };
}
